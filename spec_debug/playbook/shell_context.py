r"""Which shell quotes a `{{ ... }}` in a `run:` command sits inside.

Values are shell-quoted for the author (templating.shell_quote). Authors coming from Ansible
still write `cat "{{ model_path }}/config.json"` or `python -c '... open("{{ path }}") ...'`;
inside their quotes our quoting becomes part of the text (a path with a space gains literal
`'...'`; inside single quotes it closes the author's quote early). So a template inside the
author's double or single quotes is rewritten to escape for that context instead.

Heredoc bodies are a context of their own (POSIX 2.7.4): after `<<'EOF'` nothing is expanded,
so the value goes in as written; after `<<EOF` only `\ $ \`` are special. Either way a value
holding the end line (`EOF`) is refused at render time, since it would end the heredoc early
and run the rest as commands (`python3 - <<'EOF' ... open("{{ path }}") ... EOF` is how
agent sessions write inline Python).

This follows the quoting rules of the POSIX shell command language (Shell & Utilities, 2.2
Quoting). When the script holds what a small tracker cannot follow for certain (backquotes,
`$(...)` inside double quotes, `$'...'`, arithmetic `((...))` where `<<` is a shift), the
template source is left as it is and every value is quoted as a plain word, as before: a wrong
guess of "inside quotes" would let a value's spaces and semicolons through, so the tracker only
answers when it is sure.
"""

from __future__ import annotations

import re

DOUBLE_FILTER = "in_double_quotes"
SINGLE_FILTER = "in_single_quotes"
HEREDOC_FILTER = "in_heredoc"

_UNFOLLOWABLE = re.compile(r"`|\$'|\(\(")
# `<<`, `<<-`, then the delimiter word: 'EOF', "EOF", \EOF (quoted: the body is literal) or EOF.
_HEREDOC_START = re.compile(r"<<(-?)[ \t]*(?:'([A-Za-z0-9_.-]+)'|\"([A-Za-z0-9_.-]+)\"|(\\?)([A-Za-z0-9_.-]+))")
_STATEMENT = re.compile(r"\{%")
_RAW_BLOCK = re.compile(r"\{%-?\s*raw\s*-?%\}(.*?)\{%-?\s*endraw\s*-?%\}", re.DOTALL)
_WORD_START = " \t\n;&|()"


def mark_quoted_templates(source: str) -> str:
    """source with each `{{ expr }}` that sits in shell quotes turned into
    `{{ (expr) | in_double_quotes }}` or `{{ (expr) | in_single_quotes }}`."""
    if "{{" not in source or ('"' not in source and "'" not in source and "<<" not in source):
        return source
    if _UNFOLLOWABLE.search(source) or any("\\" in m.group(1) or "<<" in m.group(1) for m in _RAW_BLOCK.finditer(source)):
        return source
    if _STATEMENT.search(_RAW_BLOCK.sub("", source)):
        return source  # {% if %}/{% for %}: a branch may open a quote the other does not
    out: list[str] = []
    state = ""  # "", "'" or '"'
    dq_has_substitution = False
    comment = False
    heredoc: tuple[str, bool, bool] | None = None  # (delimiter, body expands, <<- strips tabs)
    i, n = 0, len(source)
    while i < n:
        if source[i] == "\n" and heredoc is not None and not state:
            end = _heredoc_body_end(source, i + 1, heredoc)
            if end < 0:
                return source  # no end line: bash reads to the end of the script; do not guess
            out.append("\n" + _mark_heredoc_body(source[i + 1 : end], heredoc))
            heredoc, comment, i = None, False, end
            continue
        if not state and not comment and source.startswith("<<<", i):  # a here-string: a plain word follows
            out.append("<<<")
            i += 3
            continue
        if not state and not comment and source.startswith("<<", i):
            start = _HEREDOC_START.match(source, i)
            if start is None or heredoc is not None:
                return source  # an odd delimiter, or two heredocs on one line
            strip_tabs, single, double, backslash, bare = start.groups()
            heredoc = (single or double or bare, not (single or double or backslash), bool(strip_tabs))
            out.append(start.group(0))
            i = start.end()
            continue
        raw = _RAW_BLOCK.match(source, i)
        if raw:  # its body is shell text: it moves the quote state, but holds no template
            for char_index, char in enumerate(raw.group(1)):
                previous = raw.group(1)[char_index - 1] if char_index else (source[i - 1] if i else "\n")
                state, comment, dq_has_substitution = _step(state, comment, dq_has_substitution, char, previous, raw.group(1), char_index)
            out.append(raw.group(0))
            i = raw.end()
            continue
        if source.startswith("{#", i) or source.startswith("{%", i):
            end = _block_end(source, i)
            if end < 0:
                return source  # Jinja reports it; nothing to rewrite
            out.append(source[i:end])
            i = end
            continue
        if source.startswith("{{", i):
            end = _expression_end(source, i + 2)
            if end < 0:
                return source
            inner = source[i + 2 : end]
            if comment or not state or (state == '"' and dq_has_substitution):
                if state == '"' and dq_has_substitution:
                    return source  # `"$( ... {{ x }} ... )"`: its quotes are nested, not tracked
                out.append(source[i : end + 2])
            else:
                out.append(_wrap(inner, DOUBLE_FILTER if state == '"' else SINGLE_FILTER))
            i = end + 2
            continue
        char = source[i]
        if char == "\\" and not comment and state != "'" and i + 1 < n:
            out.append(source[i : i + 2])  # an escaped character never opens or closes a quote
            i += 2
            continue
        state, comment, dq_has_substitution = _step(state, comment, dq_has_substitution, char,
                                                    source[i - 1] if i else "\n", source, i)
        out.append(char)
        i += 1
    if state or heredoc is not None:
        return source  # unbalanced quotes, or a heredoc with no body: do not guess
    return "".join(out)


def _heredoc_body_end(source: str, start: int, heredoc: tuple[str, bool, bool]) -> int:
    """Index just past the heredoc's end line (its own newline excluded), or -1."""
    delimiter, _, strip_tabs = heredoc
    position = start
    while position <= len(source):
        newline = source.find("\n", position)
        line_end = len(source) if newline < 0 else newline
        line = source[position:line_end]
        if (line.lstrip("\t") if strip_tabs else line) == delimiter:
            return line_end
        if newline < 0:
            return -1
        position = newline + 1
    return -1


def _mark_heredoc_body(body: str, heredoc: tuple[str, bool, bool]) -> str:
    """The body with every `{{ expr }}` passed through the heredoc filter (its end line and
    whether it expands travel as arguments, so the filter can refuse a value that ends it)."""
    delimiter, expands, _ = heredoc
    out: list[str] = []
    i = 0
    while i < len(body):
        raw = _RAW_BLOCK.match(body, i)
        if raw:
            out.append(raw.group(0))
            i = raw.end()
            continue
        if body.startswith("{#", i) or body.startswith("{%", i):
            end = _block_end(body, i)
            end = len(body) if end < 0 else end
            out.append(body[i:end])
            i = end
            continue
        if body.startswith("{{", i):
            end = _expression_end(body, i + 2)
            if end < 0:
                out.append(body[i:])
                break
            out.append(_wrap(body[i + 2 : end], f"{HEREDOC_FILTER}({delimiter!r}, {expands!r})"))
            i = end + 2
            continue
        out.append(body[i])
        i += 1
    return "".join(out)


def _step(state: str, comment: bool, dq_has_substitution: bool, char: str, previous: str,
          text: str, index: int) -> tuple[str, bool, bool]:
    if comment:
        return state, char != "\n", dq_has_substitution
    if state == "'":
        return ("" if char == "'" else "'"), False, False
    if state == '"':
        if char == '"':
            return "", False, False
        if char == "$" and text.startswith("$(", index):
            return '"', False, True
        return '"', False, dq_has_substitution
    if char in "'\"":
        return char, False, False
    if char == "#" and previous in _WORD_START:
        return "", True, False
    return "", False, False


def _block_end(text: str, start: int) -> int:
    """Index just past the `#}` or `%}` closing the Jinja comment or statement at start, or -1."""
    end = text.find("#}" if text[start + 1] == "#" else "%}", start + 2)
    return -1 if end < 0 else end + 2


def _expression_end(source: str, start: int) -> int:
    """Index of the `}}` closing the expression that starts at start (string literals skipped)."""
    i, quote = start, ""
    while i < len(source) - 1:
        char = source[i]
        if quote:
            if char == "\\":
                i += 2
                continue
            if char == quote:
                quote = ""
        elif char in "'\"":
            quote = char
        elif source.startswith("}}", i):
            return i
        i += 1
    return -1


def _wrap(inner: str, filter_name: str) -> str:
    lead = "-" if inner.startswith("-") else ""
    trail = "-" if inner.endswith("-") and not inner.endswith("--") else ""
    body = inner[len(lead) : len(inner) - len(trail)]
    return f"{{{{{lead} ({body}) | {filter_name} {trail}}}}}"
