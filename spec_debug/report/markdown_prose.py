"""Free text written by people (a playbook's description, a step's why, a finding's fix, a
step's message) put into Markdown so that it renders as they wrote it.

CommonMark reads `<port>` and `<urlopen error [Errno 111] ...>` as HTML tags (0.31 section 6.6):
the text vanished from the rendered page. "# of steps" at a line start became a heading, and
"---" under a line turned that line into one (sections 4.1-4.3). Code spans (section 6.1) are
kept as written: a backslash inside one would be printed, and so are fenced code blocks (section
4.5) and indented ones (4.4): a fix that shows the command to run, with a `# comment` or a
`<model>` placeholder in it, is copied from the page as written.
"""

from __future__ import annotations

import re
from typing import Any

# A CommonMark code span (0.31 section 6.1): a backtick run, then the shortest text up to a run
# of the same length that is not part of a longer one.
CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)(.+?)(?<!`)\1(?!`)", re.DOTALL)

# A line that would start a heading or a thematic break inside a paragraph (sections 4.1-4.3).
_BLOCK_START = re.compile(r"^( {0,3})(#{1,6}(?=\s|$)|=+\s*$|-{2,}\s*$|(?:[-*_]\s*){3,}$)")

# A < that opens a tag, not an autolink (<https://...>, section 6.5).
_TAG_START = re.compile(r"<(?=[A-Za-z/!?])(?![A-Za-z][A-Za-z0-9+.-]{1,31}:[^\s<>]*>)")


# The opening line of a fenced code block (section 4.5): 0-3 spaces, then three or more backticks
# (with no backtick in the info string after them) or tildes.
_FENCE_OPEN = re.compile(r"^ {0,3}(`{3,}(?=[^`]*$)|~{3,})")
_INDENTED_CODE = re.compile(r"^(?: {4}| {0,3}\t)")
LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)")


def md_text(value: Any) -> str:
    """Prose as Markdown that keeps its lines, lists, code spans and fenced code blocks but cannot
    open a heading, a rule or an HTML tag the author did not mean."""
    out: list[str] = []
    prose: list[str] = []
    fence: str | None = None  # the fence that closes the code block we are in
    indented = False  # in an indented code block: 4 spaces in, after a blank line (section 4.4)
    for number, line in enumerate(str(value if value is not None else "").splitlines()):
        # The first line goes on the line of the label before it ("**Fix:** ..."): no block there.
        # In a list, 4 spaces in continue an item (section 5.2), so no code block is guessed there.
        in_list = any(LIST_ITEM.match(p) for p in prose)
        block_may_start = number > 0 and not in_list and (indented or not prose or not prose[-1].strip())
        if fence is None and line.strip() and _INDENTED_CODE.match(line) and block_may_start:
            if prose:
                out.append(escape_tag_starts("\n".join(prose)))
                prose = []
            out.append(line)
            indented = True
            continue
        indented = indented and not line.strip()
        if indented:
            out.append(line)
            continue
        if fence is not None:
            out.append(line)
            if re.fullmatch(rf" {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}\s*", line):
                fence = None
            continue
        opened = _FENCE_OPEN.match(line)
        if opened is None:
            prose.append(_BLOCK_START.sub(lambda m: m.group(1) + "\\" + m.group(2), line))
            continue
        if prose:
            out.append(escape_tag_starts("\n".join(prose)))
            prose = []
        out.append(line)
        fence = opened.group(1)
    if prose:
        out.append(escape_tag_starts("\n".join(prose)))
    if fence is not None:
        out.append(fence)  # left open, it would run to the end of the report (section 4.5)
    return "\n".join(out)


_EMPHASIS = re.compile(r"\*|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])")
"""What can open or close emphasis in a table cell: any `*` (a glob, `/data/*.safetensors`) and a
`_` at a word's edge (`__pycache__`); a `_` inside a word (`spec_decode`) never does
(CommonMark 0.31 section 6.2), so snake_case names stay readable in the raw file."""


def escape_emphasis(text: str) -> str:
    """Each `*` or word-edge `_`, escaped, outside code spans."""
    return _outside_code_spans(_EMPHASIS, r"\\\g<0>", text)


def escape_tag_starts(text: str) -> str:
    """Each < that would open an HTML tag, escaped, outside code spans."""
    return _outside_code_spans(_TAG_START, r"\\<", text)


def _outside_code_spans(pattern: re.Pattern[str], replacement: str, text: str) -> str:
    """``pattern.sub(replacement, ...)`` on the text between code spans (a span shows its text
    as written: an escape there would be shown too)."""
    parts: list[str] = []
    last = 0
    for match in CODE_SPAN.finditer(text):
        parts.append(pattern.sub(replacement, text[last:match.start()]))
        parts.append(match.group(0))
        last = match.end()
    parts.append(pattern.sub(replacement, text[last:]))
    return "".join(parts)


def code_span(value: Any) -> str:
    """Inline code outside a table (CommonMark 0.31 section 6.1): fenced by a backtick run
    longer than any inside, padded when the text starts or ends with a backtick. Unlike the
    report's md_code_span (made for table cells) a | is not escaped: in a code span outside a
    table the backslash would be printed, and a regex would read wrong (or a command pasted
    from the report's footer named another folder)."""
    text = " ".join(str(value if value is not None else "").splitlines())
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or (text.startswith(" ") and text.endswith(" ") and text.strip()) else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"
