"""A key or list item out of line with its neighbours, said in the file's own words.

YAML nests by indentation (YAML 1.2.2, 8.2), and PyYAML reports a key one column out as
"expected <block end>, but found '?'" ('?' is its token for a key, '<block mapping start>' and
'<block sequence start>' are others): the new engineer learns nothing from it. A key indented
deeper than the one above it is read as more of that key's value, and fails with "mapping values
are not allowed here", which the hint for `run: curl -H "Content-Type: ..."` explained as a ': '
inside the value: wrong advice, and following it (quoting) broke the file a second way.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_ENTRY = re.compile(r"^(?P<indent> *)(?P<dashes>(?:- +)*)(?P<key>[A-Za-z_][\w.-]*)?(?P<colon>:(?: |$))?")


@dataclass(frozen=True)
class _Line:
    number: int  # 1-based
    first: int  # column of the first character, 1-based
    dash: int | None  # column of the first '- ', when the line starts a list item
    key: str | None
    key_column: int | None  # column of the key, after any '- '


def _read(number: int, text: str) -> _Line | None:
    if not text.strip() or text.lstrip().startswith("#"):
        return None
    entry = _ENTRY.match(text)
    assert entry is not None  # every part is optional
    first = len(entry.group("indent")) + 1
    dash = first if entry.group("dashes") else None
    has_key = entry.group("key") is not None and entry.group("colon") is not None
    key_column = first + len(entry.group("dashes")) if has_key else None
    return _Line(number, first, dash, entry.group("key") if has_key else None, key_column)


def _above(lines: list[str], line: int) -> list[_Line]:
    """The meaningful lines above `line`, nearest first: a `run: |` script's own lines are its
    text, not keys (`retries: 1` in a heredoc is no key to line up with)."""
    content = _block_scalar_lines(lines[:line - 1])
    found = [_read(n, lines[n - 1]) for n in range(line - 1, 0, -1) if n not in content]
    return [f for f in found if f is not None]


# A key or item whose value is a block scalar, `run: |`, `- >-`, `why: |2 # comment` (YAML 1.2.2,
# 8.1.1 block scalar headers).
_BLOCK_HEADER = re.compile(r"^(?P<indent> *(?:- +)*)(?:(?P<key>[^#'\"\s-][^#]*?):\s+|- *)?[|>][-+0-9]*\s*(?:#.*)?$")


def _block_scalar_lines(lines: list[str]) -> set[int]:
    """1-based numbers of the lines that are the text of a block scalar: after its header, the
    blank lines and those indented deeper than the header's key (`  - run: |` holds the lines
    indented past column 5, where `run` starts)."""
    content: set[int] = set()
    header_indent: int | None = None
    for number, text in enumerate(lines, start=1):
        if header_indent is not None:
            if not text.strip() or len(text) - len(text.lstrip(" ")) > header_indent:
                content.add(number)
                continue
            header_indent = None
        header = _BLOCK_HEADER.match(text)
        if header is not None:  # past the key, or at the item's '-' for `- |`
            lead = header.group("indent")
            header_indent = len(lead) if header.group("key") else len(lead.rstrip()) - 1
    return content


def indentation_hint(problem: str, lines: list[str], line: int, column: int) -> str | None:
    """A hint naming the column the key or item at `line` should start at; None when the
    error is not about its indentation."""
    if not 0 < line <= len(lines):
        return None
    here = _read(line, lines[line - 1])
    if here is None:
        return None
    above = _above(lines, line)
    if problem == "mapping values are not allowed here":
        return _deeper_key(here, above, lines, column)
    if problem.startswith("expected <block end>, but found"):
        if column != here.first:
            # Found past the line's start (`run: "{{ python }}" -c ...`: the text after a quoted
            # value): this line's key or item is where it should be.
            return None
        return _key_out_of_line(here, above) if here.dash is None else _item_out_of_line(here, above)
    return None


def _deeper_key(here: _Line, above: list[_Line], lines: list[str], column: int) -> str | None:
    # The error is at this line's own `key:` (not at a ': ' further inside its value), and the
    # key starts deeper than the key of the line above, whose value it was read as.
    if here.key is None or here.key_column is None or here.dash is not None:
        return None
    if column != here.key_column + len(here.key) or not above:
        return None
    parent = above[0]
    if parent.key is None or parent.key_column is None or here.key_column <= parent.key_column:
        return None
    return (f"{here.key}: (column {here.key_column}) is indented deeper than {parent.key}: on line "
            f"{parent.number} (column {parent.key_column}), so YAML reads it as more of {parent.key}:'s value: "
            f"start {here.key}: at column {parent.key_column}")


def _key_out_of_line(here: _Line, above: list[_Line]) -> str | None:
    if here.key is None or here.key_column is None:
        return None
    # A key under a list item lines up with the item's first key, not with its '- '.
    for other in above:
        if other.dash == here.key_column and other.key_column is not None and other.key:
            return (f"{here.key}: at column {here.key_column} lines up with the '- ' on line {other.number}, not with "
                    f"{other.key}: (column {other.key_column}): indent it to column {other.key_column}, under {other.key}:")
        if other.first < here.key_column:
            break
    columns = _key_columns(here, above)
    if not columns:
        return None
    target = min(columns, key=lambda c: (abs(c[0] - here.key_column), -c[0]))  # type: ignore[operator]
    return (f"{here.key}: at column {here.key_column} lines up with no key above it: the nearest, {target[1]}: on "
            f"line {target[2]}, starts at column {target[0]}; move {here.key}: there if it belongs with it")


def _key_columns(here: _Line, above: list[_Line]) -> list[tuple[int, str, int]]:
    """(column, key, line) of the keys above, back to the first line that starts left of this one."""
    found: list[tuple[int, str, int]] = []
    for other in above:
        if other.key is not None and other.key_column is not None:
            found.append((other.key_column, other.key, other.number))
        if other.first < (here.key_column or here.first):
            break
    return found


def _item_out_of_line(here: _Line, above: list[_Line]) -> str | None:
    items = [o for o in above if o.dash is not None]
    if not items or here.dash is None:
        return None
    nearest = min(items, key=lambda o: (abs(o.dash - here.dash), o.number * -1))  # type: ignore[operator]
    if nearest.dash == here.dash:
        return None
    return (f"this '- ' at column {here.dash} does not line up with the '- ' on line {nearest.number} (column "
            f"{nearest.dash}): items of one list start at the same column")
