"""YAML to plain Python values, remembering where every value came from.

PyYAML's safe loader forgets positions once it builds Python objects, so we compose the node
graph ourselves and record (line, column) for every key path. YAML 1.1 surprises (`on`,
`no`, `y` as booleans; `0777` as octal; `1:30` as sexagesimal; `1_000.5` as 1000.5) are rejected here with a hint
to quote the value, rather than silently becoming a bool or an int.

Hostile or broken input ends in a PlaybookError with a line and column, never a traceback:
explicit tags (`!!python/object`, `!custom`) are refused instead of silently dropped, alias
cycles and alias bombs (a few lines that expand to millions of values) are cut off, nesting
is bounded (PyYAML composes recursively and would hit RecursionError), and strings that no
command or JSON record can carry (NUL, lone surrogates from `"\ud800"`) are refused here
rather than crashing a host worker at run time.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from spec_debug.errors import PlaybookError
from spec_debug.playbook.habits import NO_INCLUDES, include_hint, number_forms, outside_shell_quotes
from spec_debug.playbook.key_indent import indentation_hint
from spec_debug.playbook.pasted_characters import pasted_in_structure
from spec_debug.playbook.float_range import past_float_range

KeyPath = tuple[Any, ...]

_YAML11_BOOL_WORDS = {"yes", "no", "on", "off", "y", "n"}
# The tags a playbook may contain: plain YAML data. Anything else would be dropped (on a
# mapping or sequence) or crash the constructor (on a scalar), so it is refused with a position.
_PLAIN_TAGS = frozenset(
    "tag:yaml.org,2002:" + name for name in ("str", "int", "float", "bool", "null", "map", "seq")
)
# Real playbooks nest about 8 levels and hold a few thousand values; these bounds are far above
# that and far below where PyYAML's recursion or an alias bomb would hurt.
MAX_DEPTH = 64
MAX_VALUES = 200_000
# A generated playbook (a step per GPU, per model, per config) may hold thousands of steps
# (bench/playbook_validation.py loads 10,000 in about 10 s of CPU); each costs ~1 ms to compose
# and check. MAX_VALUES stopped 60,000 two-line steps only at the 40,000th, after composing all
# of them (25 s of CPU). The composer stops at the first step past the bound, with its line,
# before the rest is read.
MAX_STEPS = 10_000
# The text the values hold once aliases are expanded. A long value (a script, a pasted log)
# anchored once and aliased 100,000 times stays under MAX_VALUES yet stands for 100 GB: the
# loader scanned each copy (a NUL check, the YAML comment checks) for minutes, and every
# rendered command and run.json would carry it. Sixteen times the largest playbook file
# (loader.MAX_PLAYBOOK_BYTES, 2 MiB) leaves a script aliased into every step room enough.
MAX_TEXT = 32 * 2**20
_UNCARRIABLE = re.compile("[\x00\ud800-\udfff]")


def nests_too_deep(value: Any) -> bool:
    """Whether a value read another way than through this loader (a JSON --var, a captured JSON
    fact) holds lists and objects within each other more than MAX_DEPTH levels deep: the run
    walks vars and facts recursively (redact.redact_value), and 500 levels ran into
    RecursionError. Iterative: the value is the one a recursive walk cannot take."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > MAX_DEPTH:
                return True
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return False

_SURPRISING_INT = re.compile(r"^[-+]?(0[0-7_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+|[0-9][0-9_]*(:[0-5]?[0-9])+|\d+_[\d_]*)$")


@dataclass
class PositionedDocument:
    value: Any
    positions: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    """1-based (line, column) of each value by key path; keys themselves under path + ('<key>',)."""
    lines: list[str] = field(default_factory=list)
    """The source text by line, to point inside a multi-line value (a script under `run: |`)."""
    aliases: dict[KeyPath, tuple[int, int, str]] = field(default_factory=dict)
    """Values written as a YAML alias (`- *s1`): the alias's own (line, column) and anchor name.
    positions holds the anchored value's place (the composer hands the anchored node itself to
    each alias), so without this an error in the copy pointed at the original."""
    reshaped_numbers: dict[KeyPath, str] = field(default_factory=dict)
    """Numbers whose text as Python writes it differs from the text the author wrote (`0.10`
    reads as 0.1, `3.10` as 3.1): fine as a number, wrong once put into a command
    (playbook/number_text.py decides which matter)."""

    def position(self, path: KeyPath) -> tuple[int, int] | None:
        # Walk up until a known position: a missing key is reported at its parent mapping.
        for end in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:end]))
            if found is not None:
                return found
        return None

    def alias_over(self, path: KeyPath) -> tuple[KeyPath, tuple[int, int, str]] | None:
        """The outermost alias the value at path came through: the copy the author wrote, where
        an alias inside the anchored value sits in the original's text."""
        for end in range(1, len(path) + 1):
            found = self.aliases.get(tuple(path[:end]))
            if found is not None:
                return tuple(path[:end]), found
        return None


class _TooDeep(Exception):
    def __init__(self, mark: yaml.Mark) -> None:
        self.mark = mark


class _TooManyValues(Exception):
    def __init__(self, mark: yaml.Mark, through_aliases: int) -> None:
        self.mark = mark
        self.through_aliases = through_aliases


class _TooMuchText(Exception):
    def __init__(self, mark: yaml.Mark, through_aliases: int) -> None:
        self.mark = mark
        self.through_aliases = through_aliases


class _TooManySteps(Exception):
    def __init__(self, mark: yaml.Mark) -> None:
        self.mark = mark


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that stops at MAX_DEPTH while composing. PyYAML composes recursively; left
    alone, `[[[[...` runs into RecursionError, slowly (seconds) and with no position.

    It also counts the values each node stands for once its aliases are expanded, as it meets
    them: an alias bomb ("billion laughs", nine lines of nine aliases each) is refused at the
    alias that takes the document past MAX_VALUES, before a value is built (the builder met
    it only after building 200,000 values with their positions: 3.3 s)."""

    def __init__(self, stream: str, *, count_steps: bool = False) -> None:
        super().__init__(stream)
        self._depth = 0
        self._in_steps = False  # the depth-2 node being composed is the top-level `steps:` list (count_steps only)
        self._count_steps = count_steps
        self._expanded = 0  # values so far, each alias counted as the values its anchor holds
        self._through_aliases = 0
        self._weight: dict[int, int] = {}  # a composed node's id -> the values it holds
        self._merging = 0  # inside a merge key's value (`<<: *d`, `<<: [*a, *b]`)
        self._text = 0  # characters of the scalars so far, each alias counted as the text its anchor holds
        self._text_through_aliases = 0
        self._text_weight: dict[int, int] = {}  # a composed node's id -> the characters it holds
        # (parent node id, item index or key node id) -> where an alias stands and its anchor's name
        self.alias_at: dict[tuple[int, int], tuple[yaml.Mark, str]] = {}

    def compose_node(self, parent: yaml.Node | None, index: Any) -> yaml.Node | None:
        self._depth += 1
        # PyYAML composes a mapping's value with its key node as the index
        merge = isinstance(index, yaml.ScalarNode) and index.tag == "tag:yaml.org,2002:merge"
        self._merging += merge
        # and a sequence's items with their index: the top-level `steps:` list's items are counted
        steps = self._count_steps and self._depth == 2 and isinstance(index, yaml.ScalarNode) and index.value == "steps"
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep(self.peek_event().start_mark)
            if self._in_steps and self._depth == 3 and isinstance(index, int) and index >= MAX_STEPS:
                raise _TooManySteps(self.peek_event().start_mark)
            if self._depth == 2:  # a depth-3 node is composed only inside one at depth 2
                self._in_steps = steps
            if self.check_event(yaml.AliasEvent):
                event = self.peek_event()
                mark = event.start_mark
                if parent is not None:
                    self.alias_at[(id(parent), index if isinstance(index, int) else id(index))] = (mark, event.anchor)
                node = super().compose_node(parent, index)
                # An anchor still being composed (a cycle, refused by the builder) counts one; so
                # does a merged one: merged keys replace each other, and the builder bounds a
                # merge bomb by the keys it gathers (merge_work, "use fewer nested merges").
                weight = 1 if self._merging else self._weight.get(id(node), 1)
                self._expanded += weight
                self._through_aliases += weight
                if self._expanded > MAX_VALUES:
                    raise _TooManyValues(mark, self._through_aliases)
                # A merged one counts none here, as it counts one value: the builder bounds the
                # text it builds again for each merge (_Builder.text).
                text = 0 if self._merging else self._text_weight.get(id(node), 0)
                self._text += text
                self._text_through_aliases += text
                if self._text > MAX_TEXT:
                    raise _TooMuchText(mark, self._text_through_aliases)
                return node
            start, text_start = self._expanded, self._text
            node = super().compose_node(parent, index)
            self._expanded += 1
            self._weight[id(node)] = self._expanded - start
            if isinstance(node, yaml.ScalarNode):
                self._text += len(node.value)
            self._text_weight[id(node)] = self._text - text_start
            return node
        finally:
            self._depth -= 1
            self._merging -= merge


def _tab_hint(text: str, line: int | None, column: int | None) -> str:
    """A tab in the indentation, or one after a value. PyYAML refuses both, but YAML 1.2.2
    (6.2, separation spaces) allows the second: an editor's trailing tab (`run: echo hi<TAB>`,
    a tab before a # comment) is refused only by PyYAML (yaml/pyyaml issues 306 and 450), and
    "YAML indents with spaces only" sent the user looking for an indentation that is fine."""
    lines = text.splitlines()
    row = lines[line - 1] if line and 0 < line <= len(lines) else ""
    before, after = row[:max((column or 1) - 1, 0)], row[max((column or 1) - 1, 0):]
    if not before.strip():
        return "YAML indents with spaces only: replace the tab here with spaces"
    word = before.split()[-1][-30:]
    if not after.strip():
        return f"a tab at the end of the line, after '{word}' (the YAML reader here refuses one there): remove it"
    quoted = _tab_in_shell_quotes(row, len(before))
    if quoted is not None:
        return quoted
    return f"a tab after '{word}' (the YAML reader here takes only spaces between words outside quotes): replace it with a space"


# The start of a line's value: list dashes, then a `key: ` (a plain key; a quoted one is rare here).
_VALUE_START = re.compile(r"^ *(?:- +)*(?:(?P<key>[\w.-]+): +)?")


def _tab_in_shell_quotes(row: str, index: int) -> str | None:
    """A tab inside a command's own quotes (`run: grep -P "a<TAB>b" x`, `echo 'a<TAB>b'`) is
    meant: replacing it with a space changes what the command matches or prints. A YAML block
    or YAML double quotes keep the tab (PyYAML refuses it only in a plain value, yaml/pyyaml#306)."""
    start = _VALUE_START.match(row)
    value = row[start.end():] if start else row
    if not value or index < len(row) - len(value) or outside_shell_quotes(value, index - (len(row) - len(value))):
        return None
    key = start.group("key") if start else None
    command = key in (None, "run")  # `title: Check 'a<TAB>b'` is no command
    what, text = ("the command's", "the command") if command else (f"{key}'s", "the text")
    block = f"'{key}: |' and {text} on the next line, indented" if key else f"'|' and {text} on the next line, indented"
    return (f"a tab inside {what} quotes (the YAML reader here refuses a tab in an unquoted value): "
            f"to keep the tab, quote the whole value: write it as a block ({block}), "
            "or in YAML double quotes with \\t for the tab")


def _alias_hint(exc: yaml.MarkedYAMLError) -> str | None:
    """`run: *nope` or a typo in `<<: *defualts`: PyYAML's "found undefined alias" (composer.py)
    means a '*name' with no '&name' anchor above it, which indentation and quoting do not explain."""
    found = re.match(r"found undefined alias '?([^']*)'?", exc.problem or "")
    if found is None:
        return None
    name = found.group(1)
    return (f"'*{name}' refers to an anchor '&{name}' that no value above it defines: define the anchor "
            f"first, fix the name, or quote the value if the '*' is meant literally")


_STEP_NUMBER_KEYS = frozenset({"timeout", "retries", "retry_delay", "artifact_limit"})
"""A step's keys that take a number (spec_debug/playbook/models.py, Step)."""


def load_positioned(text: str, source: str, kind: str = "playbook") -> PositionedDocument:
    """kind names the file in messages: a playbook, or a var file (playbook/var_file.py)."""
    # A UTF-8 byte order mark (a Windows editor's "UTF-8 with BOM") opens the stream; it is no
    # character of line 1 (YAML 1.2.2, 5.2; PyYAML's scanner skips it too). Left in, every
    # syntax error further down was blamed on it: pasted_in_structure took it for a pasted
    # zero-width space "in the indentation" of line 1, because a space in its place also
    # changes the error.
    text = text.removeprefix("\ufeff")
    loader: _BoundedLoader | None = None
    try:
        loader = _BoundedLoader(text, count_steps=kind == "playbook")  # reads (and checks) every character already
        node = loader.get_single_node()
    except yaml.MarkedYAMLError as exc:
        line, column = _error_position(exc, text)
        if "another document" in (exc.problem or ""):
            # `---` between two playbooks pasted into one file (Kubernetes manifests do this).
            raise PlaybookError(
                f"the file holds more than one YAML document: a {kind} is one",
                path=source, line=line, column=column,
                hint=f"put each {kind} in a file of its own (or remove this '---')",
            ) from None
        pasted = pasted_in_structure(text.splitlines(), line)
        if pasted is not None:
            raise PlaybookError(f"YAML syntax error: {pasted[2]}", path=source, line=pasted[0], column=pasted[1],
                                hint=pasted[3]) from None
        quote_template = _template_start_hint(text, line)
        if quote_template is not None:
            column, opening = _template_start(text, line)
            raise PlaybookError(f"a value that starts with '{opening}' is read by YAML as a mapping, not as a template",
                                path=source, line=line, column=column, hint=quote_template) from None
        tab = "'\\t'" in (exc.problem or "")  # PyYAML writes the tab as the escape \t
        raise PlaybookError(
            f"YAML syntax error: {exc.problem or exc.context}",
            path=source, line=line, column=column,
            # An editor that indents with tabs: YAML allows only spaces there (YAML 1.2.2, 6.1).
            hint=_tab_hint(text, line, column) if tab
            else _quoted_then_more_hint(exc, text, line, column) or _unclosed_hint(exc, text)
            or indentation_hint(exc.problem or "", text.splitlines(), line, column or 0)
            or _colon_in_value_hint(exc, text, line) or _escape_hint(exc, text, line)
            or _alias_hint(exc)
            or "check indentation and quoting around this position",
        ) from None
    except yaml.reader.ReaderError as exc:
        # A control character (NUL, BEL, ...): PyYAML gives a character offset, not a mark.
        line, column = offset_position(text, exc.position)
        raise PlaybookError(
            f"character {_codepoint(exc.character)} is not allowed in YAML ({exc.reason})",
            path=source, line=line, column=column, hint="remove it, or write it as an escape inside double quotes",
        ) from None
    except _TooDeep as exc:
        raise PlaybookError(
            f"the YAML nests more than {MAX_DEPTH} levels deep",
            path=source, line=_clamp_line(exc.mark.line + 1, text), column=exc.mark.column + 1,
        ) from None
    except _TooManyValues as exc:
        raise PlaybookError(
            f"the {kind} expands to more than {MAX_VALUES} values ({exc.through_aliases} of them through YAML aliases)",
            path=source, line=_clamp_line(exc.mark.line + 1, text), column=exc.mark.column + 1,
            hint="write the repeated parts out, or use fewer nested aliases",
        ) from None
    except _TooMuchText as exc:
        raise PlaybookError(
            f"the {kind} expands to more than {MAX_TEXT // 2**20} MiB of text "
            f"({exc.through_aliases} characters of it through YAML aliases)",
            path=source, line=_clamp_line(exc.mark.line + 1, text), column=exc.mark.column + 1,
            hint="write the repeated parts out, or use fewer aliases of the long value",
        ) from None
    except _TooManySteps as exc:
        raise PlaybookError(
            f"the {kind} has more than {MAX_STEPS} steps",
            path=source, line=_clamp_line(exc.mark.line + 1, text), column=exc.mark.column + 1, key_path=f"steps[{MAX_STEPS}]",
            hint="split it into several playbooks (one per host group, model or config) and run them one after another",
        ) from None
    except yaml.YAMLError as exc:  # no position known: point at the start
        raise PlaybookError(f"YAML error: {exc}", path=source, line=1, column=1) from None
    finally:
        if loader is not None:
            loader.dispose()
    if node is None:
        raise PlaybookError(f"the {kind} is empty", path=source, line=1, column=1)
    document = PositionedDocument(value=None, lines=text.splitlines())
    document.value = _Builder(document, source, kind, loader.alias_at if loader is not None else None).build(node, ())
    return document


_KEY_THEN_VALUE = re.compile(r"^\s*(?:-\s+)?(?P<key>[A-Za-z_][\w.-]*):\s+(?P<value>\S.*)$")


def _colon_in_value_hint(exc: yaml.MarkedYAMLError, text: str, line: int) -> str | None:
    """`run: curl -H "Content-Type: application/json" ...`: in an unquoted value, ': ' starts
    a new key (YAML 1.2.2, 7.3.3 plain scalars), so the command's own header or `key: value`
    text breaks the file. Say that, and how to keep the command as written."""
    if exc.problem != "mapping values are not allowed here":
        return None
    lines = text.splitlines()
    written = _KEY_THEN_VALUE.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if written is None or written.group("value")[0] in "\"'|>[{":
        return None
    key, value = written.group("key"), written.group("value").rstrip()
    start = f"the value of {key}: holds ': ', which YAML reads as the start of a new key"
    if key != "run" and "'" not in value and len(value) <= 80:
        return f"{start}: quote it: {key}: '{value}'"
    # A command (or text with quotes of its own): a block keeps it exactly; `|-` drops the
    # final newline, which a contains: needle must not gain.
    block = "|" if key == "run" else "|-"
    return f"{start}: write '{key}: {block}' and put the text on the next line, indented (it is then kept exactly as written)"


_QUOTED_FIRST = re.compile(r"^(?P<lead>\s*(?:-\s+)*(?:(?P<key>[A-Za-z_][\w.-]*):\s+)?)(?P<quote>[\"'])")


def _quoted_then_more_hint(exc: yaml.MarkedYAMLError, text: str, line: int, column: int) -> str | None:
    """`run: "{{ python }}" -c 'import torch'`, `that: "OK" in stdout`, `title: "GPU" check`: a
    value that starts with a quote is a quoted scalar (YAML 1.2.2, 7.3), which ends at its closing
    quote, and PyYAML fails on the text after it with "expected <block end>, but found
    '<scalar>'". The indentation hint then told the author to move a key that was where it
    belongs. Ansible says the same of this trap (ansible/ansible lib/ansible/errors/yaml_strings.py,
    YAML_COMMON_UNBALANCED_QUOTES_ERROR): quote the whole value."""
    found = (exc.problem or "").removeprefix("expected <block end>, but found ")
    if found not in ("'<scalar>'", "','"):
        return None
    lines = text.splitlines()
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    written = _QUOTED_FIRST.match(row)
    if written is None:
        return None
    start = written.end("lead")
    end = _closing_quote(row, start)
    if end is None or column != len(row) - len(row[end + 1:].lstrip()) + 1:
        return None
    value = row[start:].rstrip()
    key = written.group("key")
    named = f"the value of {key}:" if key else "this item"
    said = (f"{named} starts with a quote, so YAML reads only {row[start:end + 1]} as the value and refuses "
            f"the text after it")
    lead = f"{key}: " if key else "- "
    quote = row[start]
    if found == "'<scalar>'" and len(value) > 2 and value.endswith(quote) and quote in value[1:-1]:
        # `title: 'Check the server's log'`, `run: "python -c "import torch""`: the whole value
        # was quoted, and a quote of the same kind inside it ended it early.
        inner = value[1:-1]
        meant = (f'"{inner}"' if '"' not in inner and "\\" not in inner
                 else "'" + inner.replace("'", "''") + "'")
        return (f"the {quote} inside the value of {key or 'this item'}: ends the quoted value early: write "
                f"{lead}{meant}" + (" (inside single quotes, '' is one ')" if meant[0] == "'" and "''" in meant else ""))
    if found == "','":  # `requires: "draft_model", "hidden_states"`
        return f"{named} is several quoted values separated by ',': a list is written in brackets: {lead}[{value}]"
    if key == "run" or ("'" in value and '"' in value and len(value) > 80):
        return (f"{said}: write '{lead}|' and put the whole text on the next line, indented (it is then kept "
                "exactly as written, quotes and all)")
    quoted = ("'" + value.replace("'", "''") + "'") if "'" not in value or '"' in value or "\\" in value else f'"{value}"'
    return f"{said}: quote the whole value (the quotes inside stay part of it): {lead}{quoted}"


_CLOSERS = {"[": "]", "{": "}", '"': '"', "'": "'"}


def _unclosed_hint(exc: yaml.MarkedYAMLError, text: str) -> str | None:
    """`requires: [draft_model, hidden_states` or `run: "echo hi` with the closing bracket or
    quote left off: PyYAML reads on and fails where the text stops making sense, often on a later
    line ("expected ',' or ']', but got ':'" at the next step's `id:`), or at the end of the file.
    Its context mark is the opening bracket or quote: name it, and the line with it closed."""
    context, mark = exc.context or "", exc.context_mark
    problem = exc.problem or ""
    if mark is None or exc.problem_mark is None:
        return None
    if context in ("while parsing a flow sequence", "while parsing a flow mapping"):
        if not problem.startswith("expected ',' or") or (
                exc.problem_mark.line == mark.line and not problem.endswith("'<stream end>'")):
            return None
    elif context != "while scanning a quoted scalar" or problem != "found unexpected end of stream":
        return None
    lines = text.splitlines()
    row = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    opener = row[mark.column:mark.column + 1]
    if opener not in _CLOSERS:
        return None
    closer = _CLOSERS[opener]
    what = "quote" if opener in "'\"" else "bracket"
    hint = f"the {opener} on line {mark.line + 1}, column {mark.column + 1} is never closed: end it with {closer}"
    rest = row[mark.column + 1:]
    if closer not in rest and "#" not in rest and rest.strip() and not rest.rstrip().endswith(","):
        hint += f" (write {row.strip()}{closer})" if len(row.strip()) <= 100 else " at the end of that line"
    elif what != "quote" and rest.rstrip().endswith(","):  # spread over lines: `[draft_model,` then `hidden_states`
        hint += " after its last item"
    return hint


def _closing_quote(row: str, start: int) -> int | None:
    """The index of the quote that closes the quoted scalar opening at row[start], or None when
    it does not close on this line."""
    quote = row[start]
    index = start + 1
    while index < len(row):
        character = row[index]
        if quote == '"' and character == "\\":
            index += 2
            continue
        if character == quote:
            if quote == "'" and row[index + 1:index + 2] == "'":  # '' is a quote inside single quotes
                index += 2
                continue
            return index
        index += 1
    return None


_DOUBLE_QUOTED = re.compile(r'^(?P<lead>\s*(?:-\s+)*(?:[A-Za-z_][\w.-]*:\s+)?)"(?P<value>(?:[^"\\]|\\.)*)"\s*(?:#.*)?$')


def _escape_hint(exc: yaml.MarkedYAMLError, text: str, line: int) -> str | None:
    """`matches: "accept_len: \\d+"`: inside double quotes YAML reads a backslash as an escape
    (YAML 1.2.2, 5.7) and knows no \\d, \\s or \\. , so a regex (or a Windows path) fails to
    load with "found unknown escape character 'd'". Single quotes keep backslashes as written."""
    if not (exc.problem or "").startswith(("found unknown escape character", "expected escape sequence")):
        return None
    lines = text.splitlines()
    written = _DOUBLE_QUOTED.match(lines[line - 1]) if 0 < line <= len(lines) else None
    if written is None:
        return "inside double quotes a backslash starts an escape: use single quotes to keep backslashes as written"
    single = written.group("value").replace("'", "''")  # the only escape in single quotes (YAML 1.2.2, 7.3.2)
    return f"inside double quotes a backslash starts an escape: single quotes keep it as written: {written.group('lead').strip()} '{single}'"


_TEMPLATE_FIRST = re.compile(r"^(?P<lead>\s*(?:-\s+)*(?:(?P<key>[A-Za-z_][\w.-]*):\s+)?)(?P<value>\{[{%].*?)\s*(?:\s#.*)?$")


def _template_start_hint(text: str, line: int, column: int | None = None) -> str | None:
    """`run: {{ python }} -c ...` (or `{% if ... %}`): a plain value cannot start with '{' (YAML 1.2.2, 7.3.3), so
    YAML reads a flow mapping and fails with "expected <block end>" or builds a mapping as a
    key. Ansible meets the same trap with its own hint (ansible/ansible
    lib/ansible/errors/yaml_strings.py, YAML_COMMON_UNQUOTED_VARIABLE_ERROR). The fix, with the
    author's own value quoted."""
    lines = text.splitlines()
    if not 0 < line <= len(lines):
        return None
    written = _TEMPLATE_FIRST.match(lines[line - 1])
    if written is None or (column is not None and len(written.group("lead")) != column):
        return None
    value, key = written.group("value"), written.group("key")
    start = f"{key}: " if key else "- "
    if '"' not in value and "\\" not in value:
        quoted = f'"{value}"'
    elif "'" not in value:
        quoted = f"'{value}'"
    else:
        return f"write '{start}|' and put the value on the next line, indented (kept exactly as written)"
    return f"quote the whole value: {start}{quoted}"


def _template_in_flow(lines: list[str], node: yaml.MappingNode) -> str | None:
    """The template at node, quoted, when a flow collection holds it unquoted (`[{{ x }}]`, `{a: {{ x }}}`):
    the mapping YAML built there starts with '{{'. _template_start_hint reads a line's
    first value only, so these were "a mapping cannot be a mapping key", no hint. Only the
    shape a template gives ({{ x }} is {{x: null}: null}): `[{{regex: 'x'}}]`, a mapping
    wrapped twice, is no template and keeps "a mapping cannot be a mapping key"."""
    def empty(value: yaml.Node) -> bool:
        return isinstance(value, yaml.ScalarNode) and value.value == "" and value.style is None

    (key, value), *more = node.value
    if more or not empty(value) or not isinstance(key, yaml.MappingNode) or not all(empty(v) for _, v in key.value):
        return None
    mark = node.start_mark
    row = lines[mark.line] if 0 <= mark.line < len(lines) else ""
    rest = row[mark.column:]
    end = rest.find("}}") if rest.startswith("{{") else -1  # `{% if x %}` is {'% if x %': null}, a text key
    template = rest[: end + 2]
    if end < 0:
        return None
    if "'" in template and '"' not in template and "\\" not in template:
        return f'"{template}"'
    return "'" + template.replace("'", "''") + "'"  # single quotes keep a backslash (YAML 1.2.2, 7.3.2)


def _template_start(text: str, line: int) -> tuple[int, str]:
    """(column, '{{' or '{%') of the template that starts the value on line."""
    written = _TEMPLATE_FIRST.match(text.splitlines()[line - 1])
    return (len(written.group("lead")) + 1, written.group("value")[:2]) if written else (1, "{{")


def _codepoint(character: object) -> str:
    return f"U+{character:04X}" if isinstance(character, int) else repr(character)


def offset_position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset in text."""
    offset = max(0, min(offset, len(text)))
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _line_count(text: str) -> int:
    return max(1, len(text.splitlines()))


def _clamp_line(line: int, text: str) -> int:
    return max(1, min(line, _line_count(text)))


def _error_position(exc: yaml.MarkedYAMLError, text: str) -> tuple[int, int]:
    """Where to point the reader. "Unexpected end of stream" is reported past the last line;
    the context mark (where the unclosed quote or bracket opened) is the useful place then."""
    mark = exc.problem_mark or exc.context_mark
    if mark is None:
        return 1, 1
    if mark.line + 1 > _line_count(text) and exc.context_mark is not None:
        mark = exc.context_mark
    line = mark.line + 1
    if line > _line_count(text):  # still past the end: the end of the last line
        lines = text.splitlines() or [""]
        return len(lines), len(lines[-1]) + 1
    return line, mark.column + 1


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


class _Builder:
    """Node graph -> plain values, recording positions and refusing what a playbook cannot hold."""

    def __init__(self, document: PositionedDocument, source: str, kind: str = "playbook",
                 alias_at: dict[tuple[int, int], tuple[yaml.Mark, str]] | None = None) -> None:
        self.document = document
        self.alias_at = alias_at or {}
        self.kind = kind
        self.source = source
        self.values = 0
        self.active: set[int] = set()  # nodes on the current path: an alias to one of them is a cycle
        self.built: set[int] = set()
        self.repeated = 0  # values built again through an alias
        self.merge_work = 0  # keys gathered by merge keys (<<), which nest like aliases
        self.text = 0  # characters of the scalars built: a long value merged (<<) again and again

    def fail(self, node: yaml.Node, message: str, path: KeyPath = (), hint: str | None = None) -> PlaybookError:
        line, column = _mark(node)
        return PlaybookError(message, path=self.source, line=line, column=column, key_path=_dotted(path) or None, hint=hint)

    def build(self, node: yaml.Node, path: KeyPath) -> Any:
        if path[-1:] != ("<key>",):
            # A key's own text is built at path + ("<key>",), the very entry where the parent
            # put the position of the key that holds this mapping (`env:` of a step): recorded,
            # an unknown `env:` was reported at the last key inside it.
            self.document.positions[path] = _mark(node)
        if id(node) in self.active:
            raise self.fail(node, "a YAML alias refers to a value that contains it (a cycle)", path)
        self.values += 1
        if id(node) in self.built:
            self.repeated += 1
        self.built.add(id(node))
        if self.values > MAX_VALUES:
            if self.repeated:
                raise self.fail(node, f"the {self.kind} expands to more than {MAX_VALUES} values ({self.repeated} of them through YAML aliases)",
                                path, hint="write the repeated parts out, or use fewer nested aliases")
            # No alias: the file itself is that big (a generated playbook, a data dump pasted in).
            raise self.fail(node, f"the {self.kind} holds more than {MAX_VALUES} values", path,
                            hint="split it into several playbooks, or move data into a file the steps read")
        if len(self.active) >= MAX_DEPTH:
            raise self.fail(node, f"the YAML nests more than {MAX_DEPTH} levels deep", path)
        surprise = isinstance(node, yaml.ScalarNode) and node.tag in _IMPLICIT_SURPRISES  # gets a "quote it" below
        if node.tag not in _PLAIN_TAGS and not surprise:
            raise self.fail(node, f"YAML tag {_short_tag(node.tag)!r} is not allowed in a {self.kind}", path,
                            hint=self._include_tag_hint(node, path)
                            or f"a {self.kind} holds plain data: remove the tag (quote the value if it is text)")
        self.active.add(id(node))
        try:
            if isinstance(node, yaml.MappingNode):
                return self._mapping(node, path)
            if isinstance(node, yaml.SequenceNode):
                return [self.build(self._note_alias(node, index, item, path + (index,)), path + (index,))
                        for index, item in enumerate(node.value)]
            return self._scalar(node, path)
        finally:
            self.active.discard(id(node))

    def _mapping(self, node: yaml.MappingNode, path: KeyPath) -> dict[str, Any]:
        result: dict[str, Any] = {}
        explicit = [(k, v) for k, v in node.value if k.tag != "tag:yaml.org,2002:merge"]
        written = {k.value for k, _ in explicit if isinstance(k, yaml.ScalarNode)}
        for key_node, value_node in self._merged_pairs(node, path):
            if key_node.value in written or key_node.value in result:
                continue  # the mapping's own key wins, then the first mapping merged (YAML merge spec)
            key = self.build(key_node, path + ("<key>",))
            if not isinstance(key, str):
                raise self.fail(key_node, f"mapping key {key_node.value!r} is not a string", path, hint=f'quote it: "{key_node.value}"')
            self.document.positions[path + (key, "<key>")] = _mark(key_node)
            result[key] = self.build(value_node, path + (key,))
        merged = set(result)
        for key_node, value_node in explicit:
            if not isinstance(key_node, yaml.ScalarNode):
                written = _template_start_hint("\n".join(self.document.lines), node.start_mark.line + 1, node.start_mark.column)
                if written is not None:  # `run: {{ python }}`: the flow mapping {{...}: null}
                    raise self.fail(node, "a value that starts with '{{' is read by YAML as a mapping, not as a template", path,
                                    hint=written)
                inside = _template_in_flow(self.document.lines, node)
                if inside is not None:  # `with: {python: {{ python }}}`, `requires: [{{ x }}]`
                    raise self.fail(node, "a value that starts with '{{' inside [ ] or { } is read by YAML as a "
                                    "mapping, not as a template", path, hint=f"quote it: {inside}")
                raise self.fail(key_node, f"a {'list' if isinstance(key_node, yaml.SequenceNode) else 'mapping'} cannot be a mapping key", path)
            key = self.build(key_node, path + ("<key>",))
            if not isinstance(key, str):
                raise self.fail(key_node, f"mapping key {key_node.value!r} is not a string", path, hint=f'quote it: "{key_node.value}"')
            if key in result and key not in merged:
                # PyYAML's SafeLoader silently keeps the last of two equal keys (and Ansible only
                # warns), so the author rarely knows the first one is there: say where it is.
                first = self.document.positions.get(path + (key, "<key>"))
                where = f"the first {key!r} is on line {first[0]}" if first else f"{key!r} is given twice"
                hint = (f"{where}; one command per step: join them with && or write 'run: |' and one command a line"
                        if key == "run" else f"{where}; a mapping holds each key once: delete one of them")
                raise self.fail(key_node, f"duplicate key {key!r}", path, hint=hint)
            merged.discard(key)
            self.document.positions[path + (key, "<key>")] = _mark(key_node)
            result[key] = self.build(self._note_alias(node, id(key_node), value_node, path + (key,)), path + (key,))
        return result

    def _note_alias(self, parent: yaml.Node, index: int, child: yaml.Node, path: KeyPath) -> yaml.Node:
        alias = self.alias_at.get((id(parent), index))
        if alias is not None:
            self.document.aliases[path] = (alias[0].line + 1, alias[0].column + 1, alias[1])
        return child

    def _include_tag_hint(self, node: yaml.Node, path: KeyPath, merged: bool = False) -> str | None:
        """`steps: !include steps.yaml`, `<<: !include defaults.yaml` (PyYAML-include, Home
        Assistant, some CI tools): told "remove the tag" or "write <<: *name", the author learnt
        nothing of where the file's content must go; the include hint names it."""
        if self.kind != "playbook" or _INCLUDE_TAG.fullmatch(node.tag) is None:
            return None
        target = node.value.strip() if isinstance(node, yaml.ScalarNode) and isinstance(node.value, str) else ""
        if merged:
            return (f"{NO_INCLUDES}: write the shared keys{f' of {target}' if target else ''} on the first step that "
                    "uses them, with an anchor (- <<: &step_defaults {timeout: 60}), then <<: *step_defaults on the others")
        if path == ("vars",) and target:
            return f"{NO_INCLUDES}: pass {target} when the playbook runs: --var-file {target}"
        return include_hint(target or None)

    def _merged_pairs(self, node: yaml.MappingNode, path: KeyPath) -> list[tuple[yaml.Node, yaml.Node]]:
        """The (key, value) nodes that `<<: *defaults` (or `<<: [*a, *b]`) brings into node, in
        order of precedence: as PyYAML's SafeLoader and Ansible read them
        (https://yaml.org/type/merge.html; yaml/pyyaml lib/yaml/constructor.py, flatten_mapping),
        so a step can share its timeout, retries and expectations with others."""
        pairs: list[tuple[yaml.Node, yaml.Node]] = []
        first: yaml.Node | None = None
        for key_node, value_node in node.value:
            if key_node.tag != "tag:yaml.org,2002:merge":
                continue
            if first is not None:
                # A duplicate key like any other: PyYAML (so Ansible) lets the last `<<` win its
                # keys, where this reader let the first: which one the step got depended on the
                # tool that read it.
                raise self.fail(key_node, "duplicate key '<<'", path,
                                hint=f"the first '<<' is on line {first.start_mark.line + 1}; merge several "
                                     "mappings with one key, the first listed winning: <<: [*a, *b]")
            first = key_node
            sources = value_node.value if isinstance(value_node, yaml.SequenceNode) else [value_node]
            for source in sources:
                if not isinstance(source, yaml.MappingNode):
                    raise self.fail(source, "a merge key (<<) takes a mapping, or a list of mappings", path,
                                    hint=self._include_tag_hint(source, path, merged=True)
                                    or "write <<: *name, where &name marks a mapping (e.g. &step_defaults)")
                if id(source) in self.active or source is node:
                    raise self.fail(source, "a YAML alias refers to a value that contains it (a cycle)", path)
                self.active.add(id(source))
                try:
                    # A merged mapping's own merge keys first (its explicit keys still win).
                    inner = self._merged_pairs(source, path)
                    own = [(k, v) for k, v in source.value if k.tag != "tag:yaml.org,2002:merge"]
                    own_keys = {k.value for k, _ in own if isinstance(k, yaml.ScalarNode)}
                    pairs += own + [(k, v) for k, v in inner if k.value not in own_keys]
                    self.merge_work += len(own) + len(inner)
                    if self.merge_work > MAX_VALUES:  # `<<: [*m, *m]` nested: doubles at every level
                        raise self.fail(source, f"the {self.kind} expands to more than {MAX_VALUES} values through YAML merge keys",
                                        path, hint="write the repeated parts out, or use fewer nested merges")
                finally:
                    self.active.discard(id(source))
        for key_node, _ in pairs:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(key_node, "a merged mapping has a key that is not text", path)
        return pairs

    def _comment_cuts_quote(self, node: yaml.ScalarNode) -> bool:
        """`run: sed 's/ #.*//' cfg` or `run: grep -c "batch. #running-req" log`: in an unquoted
        value ' #' starts a YAML comment (YAML 1.2.2, 6.6), so the command is cut there and runs
        with an unclosed quote (bash: "unexpected EOF while looking for matching"). A comment
        after a complete command (`run: nvidia-smi  # the GPUs`) is the author's, and fine."""
        end = node.end_mark
        if end.line >= len(self.document.lines):
            return False
        after = self.document.lines[end.line][end.column:]
        return re.match(r"\s+#", after) is not None and not outside_shell_quotes(node.value, len(node.value))

    def _comment_meant_as_text(self, node: yaml.ScalarNode, path: KeyPath) -> str | None:
        """`contains: Decode batch. #running-req` (SGLang's scheduler log line): in an unquoted
        value ' #' starts a YAML comment (YAML 1.2.2, 6.6), so the step looked for "Decode
        batch." and passed on any decode line; `contains: #token` looked for nothing. Taken for
        text meant to be found: a '#' right before a word (`#running-req`, `#token:`), as log
        lines and regexes write it. A comment written as comments are, `# the health check`
        (a space after the #), is the author's, and fine. Returns the cut-off text."""
        if node.style is not None or len(path) < 3:
            return None
        owner = path[-3] if isinstance(path[-2], int) else path[-2]  # expect: [{...}] or expect: {...}
        if path[-1] not in _TEXT_TO_FIND.get(owner, ()):
            return None
        end = node.end_mark
        if end.line >= len(self.document.lines):
            return None
        after = re.match(r"[ \t]+(#[^\s#].*)$", self.document.lines[end.line][end.column:])
        return after.group(1).rstrip() if after else None

    def _scalar(self, node: yaml.ScalarNode, path: KeyPath) -> Any:
        raw = node.value
        self.text += len(raw)
        if self.text > MAX_TEXT:  # past the composer's bound only through merge keys
            raise self.fail(node, f"the {self.kind} expands to more than {MAX_TEXT // 2**20} MiB of text through YAML merge keys",
                            path, hint="write the repeated parts out, or use fewer merges of the long value")
        cut = self._comment_meant_as_text(node, path)
        if cut is not None:
            meant = f"{raw} {cut}" if raw else cut
            looks_for = f"would look for {raw!r}" if raw else "would be empty"
            raise self.fail(node, f"YAML ends this value at ' #' (a comment to YAML): {path[-1]}: {looks_for}, not {meant!r}", path,
                            hint=f"quote the whole value: {path[-1]}: {_single_quoted(meant)} (a comment needs a space after the #: '# ...')")
        if node.tag == "tag:yaml.org,2002:str":
            bad = _UNCARRIABLE.search(raw)
            if bad:
                what = "a NUL character" if bad.group(0) == "\x00" else f"a lone surrogate {bad.group(0)!r}"
                raise self.fail(node, f"the text contains {what}, which no command, file name or JSON record can carry", path,
                                hint="remove the escape (\\0, \\uD800-\\uDFFF) from the double-quoted string")
            if node.style is None and path and path[-1] == "run" and self._comment_cuts_quote(node):
                raise self.fail(node, f"YAML ends this command at ' #' (a comment to YAML), inside a quote the command opened: "
                                      f"it would run as {raw!r}", path,
                                hint="write 'run: |' and put the command on the next line, indented (kept exactly as written)")
            return raw
        if node.tag == "tag:yaml.org,2002:bool" and raw.lower() in _YAML11_BOOL_WORDS:
            hint = f'write true/false for a boolean, or quote it ("{raw}") for a string'
            if self.kind == "playbook" and len(path) == 3 and path[0] == "steps" and path[2] in _STEP_NUMBER_KEYS:
                # `timeout: no` (meaning no limit): neither a boolean nor quoted text is a timeout.
                hint = number_forms(path[2])
            raise self.fail(node, f"{raw!r} is a YAML 1.1 boolean, not the string it looks like", path, hint=hint)
        if node.tag == "tag:yaml.org,2002:float" and ":" in raw:
            raise self.fail(node, f"{raw!r} would be read as a sexagesimal number", path, hint=f'quote it: "{raw}"')
        if node.tag in _IMPLICIT_SURPRISES:
            raise self.fail(node, f"{raw!r} would be read as a {node.tag.rsplit(':', 1)[-1]}, not text", path, hint=f'quote it: "{raw}"')
        try:
            value = _CONSTRUCTOR.construct_object(node, deep=True)
        except (ValueError, OverflowError, yaml.YAMLError) as exc:  # e.g. an int of more than 4300 digits
            raise self.fail(node, f"{raw[:40]!r} is not a usable {node.tag.rsplit(':', 1)[-1]}: {str(exc).splitlines()[0][:120]}", path,
                            hint="quote it if you mean the text") from None
        if node.tag == "tag:yaml.org,2002:float" and isinstance(value, float) and (past := past_float_range(raw)):
            # `min_kl: 1.0e-400` was the number 0.0 and `max_ms: 1.0e+400` infinity, unsaid
            # (`.inf` is YAML's own spelling, and has no exponent)
            raise self.fail(node, f"{raw!r} is {past}", path,
                            hint="write a number between 1e-300 and 1e300 (or 0)")
        if node.tag == "tag:yaml.org,2002:float" and "_" in raw and isinstance(value, float):
            # `1_000.5` is 1000.5 to YAML 1.1 and text to YAML 1.2, as `1_000` (below) is: the
            # whole number was refused and the float taken unsaid, in a playbook and a --var-file.
            number = str(value) if "e" not in str(value) else raw.replace("_", "")
            raise self.fail(node, f"{raw!r} would be read as the number {number}", path,
                            hint=f'write {number} if you mean the number, or quote it ("{raw}") if you mean the text')
        if node.tag == "tag:yaml.org,2002:float" and isinstance(value, float) and _reshaped(raw, value):
            self.document.reshaped_numbers[path] = raw
        if node.tag == "tag:yaml.org,2002:int" and _SURPRISING_INT.match(raw):
            raise self.fail(node, f"{raw!r} would be read as the number {value}", path,
                            hint=f'write {value} if you mean the number, or quote it ("{raw}") if you mean the text')
        return value


# Plain values an author writes to be found in output: a YAML comment cut into them changes
# what is found, silently. Keyed by the list that holds them (steps[i].expect[j].contains).
_TEXT_TO_FIND = {"expect": ("contains", "not_contains", "matches"), "capture": ("regex",)}


def _single_quoted(text: str) -> str:
    """text as a YAML single-quoted scalar, for a hint to copy: no escapes but '' for ', so a
    regex's backslashes stay as written."""
    return "'" + text.replace("'", "''") + "'"


def _reshaped(raw: str, value: float) -> bool:
    """`0.10` and `3.10` come back as 0.1 and 3.1 (YAML 1.1 reads them as floats: yaml.org/type/float.html);
    `.inf` and `.nan` are spelled by YAML itself, not reshaped."""
    return math.isfinite(value) and str(value) != raw.replace("_", "").lower().lstrip("+")


# Implicitly resolved types that surprise authors: refused with a "quote it" hint.
_IMPLICIT_SURPRISES = frozenset(
    "tag:yaml.org,2002:" + name for name in ("timestamp", "binary", "set")
)


_INCLUDE_TAG = re.compile(r"!(?:include|import)(?:_?[a-z]*)?", re.IGNORECASE)
"""Tags that read another file into the document: !include, !include_tasks, !import, ..."""


def _short_tag(tag: str) -> str:
    return "!!" + tag[len("tag:yaml.org,2002:"):] if tag.startswith("tag:yaml.org,2002:") else tag


_CONSTRUCTOR = yaml.SafeLoader("")


def _dotted(path: KeyPath) -> str:
    parts: list[str] = []
    for part in path:
        if part == "<key>":
            continue
        if isinstance(part, int):
            parts.append(f"[{part}]")
        else:
            parts.append(("." if parts else "") + str(part))
    return "".join(parts)


dotted_path = _dotted
