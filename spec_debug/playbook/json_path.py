"""A capture's JSON path (`engine.version`, `gpus[0].name`, `weight_map["lm_head.weight"]`,
`samples[-1]`) read into its parts, or refused when the playbook loads.

Every character of the path must belong to a part: the parts were picked out of the text and
the rest skipped, so `gpus[*].name` (JSONPath's wildcard), `$..accept_len` (its recursive
descent), `a..b` or `gpus[0` read as some other path and the fact was None without a word."""

from __future__ import annotations

import re

# A key, [index] (negative from the end, as in JSONPath, RFC 9535, and jq: `samples[-1]` read
# the key "-1"), or ["key"] / ['key'] for keys that hold dots (model.safetensors.index.json
# names tensors like "lm_head.weight").
_PART = re.compile(r"([^.\[\]]+)|\[(-?\d+)\]|\[\"([^\"]*)\"\]|\['([^']*)'\]")


def json_path_parts(path: str) -> list[str | int]:
    """The keys (str) and indices (int) of `path`; `$.`, `$` or a leading `.` start it. An
    empty path is the whole document. ValueError names where the path cannot be read."""
    text = path.strip()
    position = 2 if text.startswith("$.") else 1 if text.startswith(("$", ".")) else 0
    if position == len(text):
        return []
    parts: list[str | int] = []
    while True:
        match = _PART.match(text, position)
        if match is None:
            raise _unreadable(path, position)
        key, index, double_quoted, single_quoted = match.groups()
        parts.append(int(index) if index is not None else next(p for p in (key, double_quoted, single_quoted) if p is not None))
        position = match.end()
        if position == len(text):
            return parts
        if text[position] == "." and position + 1 < len(text):
            position += 1
        elif text[position] != "[":
            raise _unreadable(path, position)


def _unreadable(path: str, position: int) -> ValueError:
    return ValueError(f"json path {path!r} cannot be read at character {position + 1}: join keys with dots, "
                      "[N] for an item ([-1] the last), [\"key\"] for a key with dots; wildcards ([*]) and "
                      "recursive descent (..) are not supported")
