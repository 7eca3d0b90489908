"""Expressions (`when:`, `until:`, `that:`) written as other languages write them.

Jinja expressions are Python-like (jinja.palletsprojects.com, Template Designer Documentation,
"Expressions"): text is quoted, `and`/`or`/`not` join conditions. Authors coming from bash, C or
JavaScript write `facts.engine == sglang`, `a && b`, `!ok`, `x === 0`; validation said
"undefined variable 'sglang' ... declare it under vars:" (advice that makes it worse) or
"unexpected char '&' at 15", and nothing about what to write.
"""

from __future__ import annotations

import re

from jinja2 import nodes

from spec_debug.playbook.templating import TEXT_ENV

# Outside quotes, none of these is Jinja: `&&`, `||`, JavaScript's `===`/`!==`, a bare `!`.
_FOREIGN_OPERATOR = re.compile(r"&&|\|\||===|!==|(?<![=!<>])!(?!=)")


def operator_hint(text: str) -> str | None:
    """`a && b` -> "write: a and b"; None when the text has none of those operators outside
    quotes."""
    if not _FOREIGN_OPERATOR.search(_unquoted(text)):
        return None
    pieces = re.split(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")""", text)  # quoted text stays as written
    for i in range(0, len(pieces), 2):
        piece = pieces[i]
        piece = re.sub(r"\s*&&\s*", " and ", piece)
        piece = re.sub(r"\s*\|\|\s*", " or ", piece)
        piece = re.sub(r"===", "==", piece)
        piece = re.sub(r"!==", "!=", piece)
        piece = re.sub(r"(?<![=!<>])!(?!=)\s*", "not ", piece)
        pieces[i] = piece
    return f"Jinja joins conditions with and / or / not and compares with == (as Python does): write {''.join(pieces).strip()}"


def unquoted_word_hint(text: str, names: list[str], is_expression: bool) -> str | None:
    """`facts.engine == sglang`: an undefined name compared with something was meant as text.
    The expression with each such name quoted; None when none is an operand of a comparison."""
    try:
        parsed = TEXT_ENV.parse("{{ " + text + " }}" if is_expression else text)
    except Exception:  # noqa: BLE001 - a text that does not parse has its own error
        return None
    compared = {o.name for c in parsed.find_all(nodes.Compare) for o in [c.expr] + [op.expr for op in c.ops]
                if isinstance(o, nodes.Name) and o.name in names}
    if not compared:
        return None
    absent = _absence_hint(text, compared)
    if absent is not None:
        return absent
    quoted = text.strip()
    for name in sorted(compared):
        quoted = re.sub(rf"(?<![\w.'\"]){re.escape(name)}(?![\w'\"])", f"'{name}'", quoted)
    words = " and ".join(sorted(compared))
    return f"to compare with the text {words}, quote it: {quoted}"


# JSON's and YAML's null, Go's and Ruby's nil, JavaScript's undefined: Jinja tests for them
# (`is none`, `is defined`); quoting them, as for a word, compares with the text "null".
_ABSENT_WORDS = {"null": "none", "NULL": "none", "Null": "none", "nil": "none", "undefined": "undefined"}


def _absence_hint(text: str, compared: set[str]) -> str | None:
    """`facts.x == null` -> "write facts.x is none"; None when no such word is compared."""
    words = sorted(compared & set(_ABSENT_WORDS))
    if not words:
        return None
    written = text.strip()
    for word in words:
        test = _ABSENT_WORDS[word]
        negated = "defined" if test == "undefined" else "not none"
        written = re.sub(rf"\s*(?:===?)\s*{word}\b", f" is {test}", written)
        written = re.sub(rf"\s*(?:!==?)\s*{word}\b", f" is {negated}", written)
    return f"Jinja has no {words[0]}: it tests for a missing value with is none / is defined: write {written}"


def _unquoted(text: str) -> str:
    return re.sub(r"""'(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*\"""", "''", text)
