"""Refuse, at load time, a regex whose matching time can explode on one line of output.

Python's re backtracks, and it cannot be interrupted from another thread: `(a+)+$` against a
line of forty "a"s and a "b" tries 2**40 ways to split the line, so the step's host thread
never returns and the run hangs with it (a long log line is ordinary output, not an attack).
The shape behind almost every such blow-up is a repetition inside a repetition (star height
above one), as in `(a+)+`, `(\\w+\\s?)*` or `(.*,)+`. That shape is refused, with safe forms
kept: a body of one repetition and a character it cannot match at the body's start or end,
as in `(\\d+\\.)+` or `(?:[^,]*,)*`, and a body whose every repetition is followed by a
character it cannot match, as in `(?:,\\s*\\d+)*` (each repetition then ends at a fixed place).
Overlapping alternatives (`(a|a)+`) are not detected.
"""

from __future__ import annotations

import re
from typing import Any

from re import _constants as sre  # type: ignore[attr-defined]  # Python 3.11+: the parser's opcodes
from re import _parser as sre_parse  # type: ignore[attr-defined]

_MANY = 10
"""A repetition that may run this many times or more counts as unbounded: `(a{1,100}){1,100}`
blows up like `(a+)+`, while `(\\d{1,3}\\.){3}` stays small."""

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT)
# POSSESSIVE_REPEAT and ATOMIC_GROUP (Python 3.11) never give characters back, so they cannot
# backtrack into each other: `(?:a++)+` is safe.

_CATEGORY_TESTS = {
    sre.CATEGORY_DIGIT: re.compile(r"\d"), sre.CATEGORY_NOT_DIGIT: re.compile(r"\D"),
    sre.CATEGORY_SPACE: re.compile(r"\s"), sre.CATEGORY_NOT_SPACE: re.compile(r"\S"),
    sre.CATEGORY_WORD: re.compile(r"\w"), sre.CATEGORY_NOT_WORD: re.compile(r"\W"),
}


class BacktrackingRegex(ValueError):
    """A regex with a repetition inside a repetition (raised as the playbook's load error)."""


def refuse_nested_repetition(pattern: str, flags: int = re.MULTILINE) -> None:
    """Raise BacktrackingRegex when `pattern` repeats a repetition. The pattern compiles."""
    parsed = sre_parse.parse(pattern, flags)
    ignore_case = bool((flags | parsed.state.flags) & re.IGNORECASE) or _scoped_ignore_case(list(parsed))
    dotall = bool((flags | parsed.state.flags) & re.DOTALL)
    for body in _repeated_bodies(list(parsed)):
        inner = _inner_repeats(body)
        if inner and not (_delimited(body, inner, ignore_case) or _delimited_rounds(body, inner, ignore_case)):
            raise BacktrackingRegex(
                "invalid regex: a repetition inside a repetition, like (a+)+, can backtrack for ever on one "
                "long line of output; repeat once, or end the repeated group with a character the inner "
                "repetition cannot match, e.g. (\\d+\\.)+"
            )
        if _ambiguous_alternation(body, ignore_case, dotall):
            raise BacktrackingRegex(
                "invalid regex: a repeated alternation whose alternatives can match the same text, like "
                "(a|a)+ or (.|\\s)*, can backtrack for ever on one long line of output; make the "
                "alternatives exclusive, e.g. [\\s\\S]* or (?:a)+"
            )


def _scoped_ignore_case(items: list[Any]) -> bool:
    """Whether a group turns IGNORECASE on (`(?i:...)`): then `A` overlaps `a+` there. Read
    for the whole pattern, which can only refuse more."""
    for op, av in items:
        if op == sre.SUBPATTERN and av[1] & re.IGNORECASE:
            return True
        if any(_scoped_ignore_case(child) for child in _children(op, av)):
            return True
    return False


def _children(op: Any, av: Any) -> list[list[Any]]:
    """The sub-pattern item lists of one parsed item."""
    if op in _REPEATS or op == sre.POSSESSIVE_REPEAT:
        return [list(av[2])]
    if op == sre.SUBPATTERN:
        return [list(av[3])]
    if op == sre.BRANCH:
        return [list(branch) for branch in av[1]]
    if op in (sre.ASSERT, sre.ASSERT_NOT):
        return [list(av[1])]
    if op == sre.ATOMIC_GROUP:
        return [list(av)]
    if op == sre.GROUPREF_EXISTS:
        return [list(part) for part in av[1:] if part is not None]
    return []


def _repeated_bodies(items: list[Any]) -> list[list[Any]]:
    """The bodies of every backtracking repetition that may run many times."""
    found: list[list[Any]] = []
    for op, av in items:
        if op in _REPEATS and _many(av[1]):
            found.append(list(av[2]))
        for child in _children(op, av):
            found += _repeated_bodies(child)
    return found


def _inner_repeats(items: list[Any]) -> list[Any]:
    """The backtracking many-times repetitions anywhere inside `items` (not in atomic groups)."""
    found: list[Any] = []
    for op, av in items:
        if op == sre.ATOMIC_GROUP:
            continue
        if op in _REPEATS and _many(av[1]):
            found.append(av)
        for child in _children(op, av):
            found += _inner_repeats(child)
    return found


def _many(maximum: int) -> bool:
    return maximum is sre.MAXREPEAT or maximum >= _MANY


def _delimited(body: list[Any], inner: list[Any], ignore_case: bool) -> bool:
    """One inner repetition of a single character class, and the body starts or ends with a
    character that class cannot match: then every round of the outer repetition ends at a
    fixed place, and the match is linear."""
    if len(inner) != 1 or len(inner[0][2]) != 1:
        return False
    atom = list(inner[0][2])[0]
    flat = _flatten(body)
    for edge in (flat[:1], flat[-1:]):
        if not edge:
            continue
        chars = _literal_chars(edge[0])
        if chars and not any(_atom_matches(atom, c, ignore_case) for c in chars):
            return True
        if _category(edge[0]) is not None and _category(atom) is not None:
            if frozenset((_category(edge[0]), _category(atom))) in _DISJOINT:
                return True
    return False


def _delimited_rounds(body: list[Any], inner: list[Any], ignore_case: bool) -> bool:
    """Every inner repetition repeats one character class and is followed, in the body, by a
    mandatory character that class cannot match (the last one by the body's first item,
    where the next round starts): then each repetition stops at one place, every round
    matches its text one way only, and the match stays linear. This is the shape of a
    comma-separated list, `\\d+(?:,\\s*\\d+)*` (layer ids "2, 16, 29"), which _delimited
    refused for holding two repetitions; `(\\s*\\d+)*` (\\s* may be empty, so the digits
    split between rounds) is still refused."""
    flat = _flatten(body)
    repeats = [index for index, (op, av) in enumerate(flat) if op in _REPEATS and _many(av[1])]
    if len(repeats) != len(inner):
        return False  # a repetition inside a branch or a lookaround: not read here
    for index in repeats:
        repeated = list(flat[index][1][2])
        if len(repeated) != 1:
            return False
        following = flat[index + 1] if index + 1 < len(flat) else flat[0]
        if not _stops(following, repeated[0], ignore_case):
            return False
    return True


def _stops(item: Any, atom: Any, ignore_case: bool) -> bool:
    """Whether item is a mandatory character (a literal, a class, or the first of a repetition
    of at least one) that `atom` can never match."""
    op, av = item
    if op in _REPEATS:
        if av[0] < 1 or len(av[2]) != 1:
            return False
        item = list(av[2])[0]
    chars = _literal_chars(item)
    if chars:
        return not any(_atom_matches(atom, c, ignore_case) for c in chars)
    first, repeated = _category(item), _category(atom)
    return first is not None and repeated is not None and frozenset((first, repeated)) in _DISJOINT


# Classes no character belongs to both of (\d is part of \w): `(\w+\s)+`, `(\s+\d)*`.
_DISJOINT = {frozenset(pair) for pair in [
    (sre.CATEGORY_WORD, sre.CATEGORY_SPACE), (sre.CATEGORY_DIGIT, sre.CATEGORY_SPACE),
    (sre.CATEGORY_DIGIT, sre.CATEGORY_NOT_DIGIT), (sre.CATEGORY_DIGIT, sre.CATEGORY_NOT_WORD),
    (sre.CATEGORY_SPACE, sre.CATEGORY_NOT_SPACE), (sre.CATEGORY_WORD, sre.CATEGORY_NOT_WORD),
]}


def _category(item: Any) -> Any:
    """The class of `\\d`, `\\w`, `[\\s]` and the like, else None."""
    op, av = item
    if op == sre.IN and len(av) == 1 and av[0][0] == sre.CATEGORY:
        return av[0][1]
    return None


def _flatten(items: list[Any]) -> list[Any]:
    """Items with plain groups opened: `((\\d+)\\.)` reads as \\d+ then a dot."""
    flat: list[Any] = []
    for op, av in items:
        if op == sre.SUBPATTERN:
            flat += _flatten(list(av[3]))
        else:
            flat.append((op, av))
    return flat


def _literal_chars(item: Any) -> set[str] | None:
    """The characters a mandatory one-character item matches: a literal, or a set of literals."""
    op, av = item
    if op == sre.LITERAL:
        return {chr(av)}
    if op == sre.IN and all(kind == sre.LITERAL for kind, _ in av):
        return {chr(value) for _, value in av}
    return None


def _atom_matches(atom: Any, char: str, ignore_case: bool) -> bool:
    """Whether a one-character item could match `char`; True when unsure (refusing is safe)."""
    if ignore_case:
        return any(_atom_matches(atom, c, False) for c in {char.lower(), char.upper()})
    op, av = atom
    if op == sre.LITERAL:
        return chr(av) == char
    if op == sre.NOT_LITERAL:
        return chr(av) != char
    if op == sre.ANY:
        return True
    if op == sre.IN:
        negate = bool(av) and av[0][0] == sre.NEGATE
        hit = False
        for kind, value in av[1:] if negate else av:
            if kind == sre.LITERAL:
                hit = hit or chr(value) == char
            elif kind == sre.RANGE:
                hit = hit or value[0] <= ord(char) <= value[1]
            elif kind == sre.CATEGORY and value in _CATEGORY_TESTS:
                hit = hit or bool(_CATEGORY_TESTS[value].match(char))
            else:
                return True
        return hit != negate
    return True


_SAMPLE = [chr(c) for c in range(9, 127)]
"""Characters tried to learn whether two one-character items overlap: tab to tilde (the
text of a log line); an item the sampler cannot read counts as overlapping."""


def _ambiguous_alternation(body: list[Any], ignore_case: bool, dotall: bool) -> bool:
    """A branch in the repeated ``body`` that can match one text in two ways. The parser has
    already merged one-character literal alternatives into a set and factored out a common
    prefix (`(a|a)` reads as `a` then a branch of two empty alternatives), so what is left
    is checked in three narrow forms:
    - two alternatives that both can match nothing (`(a|a)+`, `(ab|ab)+`);
    - one that can match nothing and one that starts as the body starts (`(a|aa)+`: "aa" is
      one round or two);
    - two one-character alternatives with a character in common (`(.|\\s)*`, `(\\w|-|\\d)+`)."""
    flat = _flatten(body)
    first = flat[0] if flat else None
    for op, av in flat:
        if op != sre.BRANCH:
            continue
        alternatives = [_flatten(list(alt)) for alt in av[1]]
        empty = [alt for alt in alternatives if not alt]
        if len(empty) >= 2:
            return True
        if empty and first is not None and first[0] != sre.BRANCH:
            if any(alt and _overlap(alt[0], first, ignore_case, dotall) for alt in alternatives):
                return True
        single = [alt[0] for alt in alternatives if len(alt) == 1 and _one_char(alt[0])]
        for i, a in enumerate(single):
            if any(_overlap(a, b, ignore_case, dotall) for b in single[i + 1:]):
                return True
    return False


def _one_char(item: Any) -> bool:
    return item[0] in (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN)


def _overlap(a: Any, b: Any, ignore_case: bool, dotall: bool) -> bool:
    if not (_one_char(a) and _one_char(b)):
        return False  # a group or a repetition first: not read here (never refused for it)
    return any(_char_matches(a, c, ignore_case, dotall) and _char_matches(b, c, ignore_case, dotall)
               for c in _SAMPLE)


def _char_matches(atom: Any, char: str, ignore_case: bool, dotall: bool) -> bool:
    if atom[0] == sre.ANY:
        return dotall or char != "\n"
    return _atom_matches(atom, char, ignore_case)
