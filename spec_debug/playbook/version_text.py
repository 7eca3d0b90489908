"""Refuse an expression that orders a value against a version written as text.

`that: facts.vllm_version >= '0.4'` compares text with text, character by character: '0.10.1'
>= '0.4' is False ('1' < '4'), and '0.9' < '0.10' is False, so a newer release fails the check
(a false SD001) and an older one passes it, on every host, with nothing to say why. Jinja has no
version order, and no comparison of texts can be made one (the sandbox intercepts arithmetic,
not comparisons), so the playbook is refused at load time with the form that compares the
parts as numbers.
"""

from __future__ import annotations

import re

from jinja2 import nodes

from spec_debug.playbook.status_words import Comparison

# 0.4, 1.2.3, v0.5.0, 2.1.0rc1, 0.6.3.post1, 2.3.0+cu121: two or more dotted numbers
VERSION_TEXT = re.compile(r"[vV]?\d+(?:\.\d+)+(?:[-+._]?[0-9A-Za-z]+)*")
_ORDERING = {"lt": "<", "lteq": "<=", "gt": ">", "gteq": ">="}
_PART_NAMES = ("major", "minor", "patch")


def version_ordered_as_text(pairs: list[Comparison]) -> tuple[str, str] | None:
    """(the quoted version, the operator) of the first `x < 'N.N'` (any ordering, either side)."""
    for left, op, right in pairs:
        if op not in _ORDERING:
            continue
        for side in (left, right):
            if isinstance(side, nodes.Const) and isinstance(side.value, str) and VERSION_TEXT.fullmatch(side.value.strip()):
                return side.value, _ORDERING[op]
    return None


def version_hint(word: str, operator: str) -> str:
    """The same test with the parts as numbers: `(facts.major, facts.minor) >= (0, 4)`."""
    parts = [int(p) for p in re.findall(r"\d+", word.strip().lstrip("vV").split("+")[0])][: len(_PART_NAMES)]
    names = _PART_NAMES[: len(parts)]
    regex = r"\.".join(rf"(?P<{n}>\d+)" for n in names)
    facts = ", ".join(f"facts.{n}" for n in names)
    return (f"capture the parts as numbers: regex: '{regex}', type: int, then "
            f"({facts}) {operator} ({', '.join(map(str, parts))})")
