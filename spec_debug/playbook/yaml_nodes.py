"""YAML to plain Python values, remembering where every value came from.

PyYAML's safe loader forgets positions once it builds Python objects, so we compose the node
graph ourselves and record (line, column) for every key path. YAML 1.1 surprises (`on`,
`no`, `y` as booleans; `0777` as octal; `1:30` as sexagesimal) are rejected here with a hint
to quote the value, rather than silently becoming a bool or an int.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import yaml

from spec_debug.errors import PlaybookError

KeyPath = tuple[Any, ...]

_YAML11_BOOL_WORDS = {"yes", "no", "on", "off", "y", "n"}
_SURPRISING_INT = re.compile(r"^[-+]?(0[0-7_]+|0o[0-7_]+|0x[0-9a-fA-F_]+|0b[01_]+|[0-9][0-9_]*(:[0-5]?[0-9])+|\d+_[\d_]*)$")


@dataclass
class PositionedDocument:
    value: Any
    positions: dict[KeyPath, tuple[int, int]] = field(default_factory=dict)
    """1-based (line, column) of each value by key path; keys themselves under path + ('<key>',)."""

    def position(self, path: KeyPath) -> tuple[int, int] | None:
        # Walk up until a known position: a missing key is reported at its parent mapping.
        for end in range(len(path), -1, -1):
            found = self.positions.get(tuple(path[:end]))
            if found is not None:
                return found
        return None


def load_positioned(text: str, source: str) -> PositionedDocument:
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        raise PlaybookError(
            f"YAML syntax error: {exc.problem or exc.context}",
            path=source,
            line=mark.line + 1 if mark else None,
            column=mark.column + 1 if mark else None,
            hint="check indentation and quoting around this position",
        ) from None
    except yaml.YAMLError as exc:
        raise PlaybookError(f"YAML error: {exc}", path=source) from None
    if node is None:
        raise PlaybookError("the playbook is empty", path=source, line=1, column=1)
    document = PositionedDocument(value=None)
    document.value = _build(node, (), document, source)
    return document


def _mark(node: yaml.Node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _build(node: yaml.Node, path: KeyPath, document: PositionedDocument, source: str) -> Any:
    document.positions[path] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                raise PlaybookError("YAML merge keys (<<) are not supported", path=source, line=_mark(key_node)[0], column=_mark(key_node)[1])
            key = _build(key_node, path + ("<key>",), document, source)
            if not isinstance(key, str):
                line, column = _mark(key_node)
                raise PlaybookError(
                    f"mapping key {key_node.value!r} is not a string",
                    path=source, line=line, column=column,
                    hint=f'quote it: "{key_node.value}"',
                )
            if key in result:
                line, column = _mark(key_node)
                raise PlaybookError(f"duplicate key {key!r}", path=source, line=line, column=column)
            document.positions[path + (key, "<key>")] = _mark(key_node)
            result[key] = _build(value_node, path + (key,), document, source)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (index,), document, source) for index, item in enumerate(node.value)]
    assert isinstance(node, yaml.ScalarNode)
    value = yaml.SafeLoader.construct_scalar(_CONSTRUCTOR, node) if node.tag == "tag:yaml.org,2002:str" else None
    if node.tag == "tag:yaml.org,2002:str":
        return value
    raw = node.value
    line, column = _mark(node)
    if node.tag == "tag:yaml.org,2002:bool" and raw.lower() in _YAML11_BOOL_WORDS:
        raise PlaybookError(
            f"{raw!r} is a YAML 1.1 boolean, not the string it looks like",
            path=source, line=line, column=column, key_path=_dotted(path),
            hint=f'write true/false for a boolean, or quote it ("{raw}") for a string',
        )
    if node.tag == "tag:yaml.org,2002:int" and _SURPRISING_INT.match(raw):
        raise PlaybookError(
            f"{raw!r} would be read as the number {_CONSTRUCTOR.construct_yaml_int(node)}",
            path=source, line=line, column=column, key_path=_dotted(path),
            hint=f'quote it ("{raw}") if you mean the text, or write the decimal number',
        )
    if node.tag == "tag:yaml.org,2002:float" and ":" in raw:
        raise PlaybookError(
            f"{raw!r} would be read as a sexagesimal number",
            path=source, line=line, column=column, key_path=_dotted(path), hint=f'quote it: "{raw}"',
        )
    if node.tag in ("tag:yaml.org,2002:timestamp", "tag:yaml.org,2002:binary", "tag:yaml.org,2002:set"):
        raise PlaybookError(
            f"{raw!r} would be read as a {node.tag.rsplit(':', 1)[-1]}, not text",
            path=source, line=line, column=column, key_path=_dotted(path), hint=f'quote it: "{raw}"',
        )
    return _CONSTRUCTOR.construct_object(node, deep=True)


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
