"""A step's result compared with what it never is: `when: steps.gpu.status == 'pass'`, and
`that: exit_code == "0"` (a number compared with text: a false SD001 on every host).

The test is false on every host, so the step is skipped everywhere and the run passes, with
nothing to say the condition was misspelt. The statuses are record.StepStatus; the words
authors bring are Ansible's (`ok`, `changed`, `success`: docs.ansible.com, playbooks_tests
"Task results") and CI's (`pass`, `fail`, `timed_out`).
"""

from __future__ import annotations

import difflib
import re
from typing import Any, get_args

from jinja2 import TemplateSyntaxError, nodes

from spec_debug.playbook.templating import COMPARING_TESTS, NUMBER_TEXT, TEXT_ENV, step_result_read
from spec_debug.record import StepStatus

STATUSES = get_args(StepStatus)

# Words whose status is plain but not close in spelling.
_MEANT = {"ok": "passed", "success": "passed", "succeeded": "passed", "changed": "passed", "green": "passed",
          "timed_out": "timeout", "timedout": "timeout", "errored": "error", "skip": "skipped"}


Comparison = tuple[nodes.Node, str, nodes.Node]


def unknown_status_word(pairs: list[Comparison]) -> tuple[str, str, str | None] | None:
    """(step id, the word, the status meant or None) for the first `steps.ID.status` compared
    (==, !=, in, not in) with a string that is no status, among a template's `comparisons`."""
    compared: list[tuple[str, str]] = []  # (step id, word) in the order written
    for left, op, right in pairs:
        compared += _status_words_compared(left, op, right)
    for step_id, word in compared:
        if word in STATUSES:
            continue
        meant = _status_meant(word)
        # `in ['passed', 'ok']`, `== 'failed' or == 'fail'`: the status meant is tested beside
        # the Ansible word, so the test is right on every host (the word only never matches).
        if meant is None or (step_id, meant) not in compared:
            return step_id, word, meant
    return None


def comparisons(text: str, expression: bool) -> list[Comparison]:
    """(left, operator, right) of each comparison in a template or expression, a chain
    (`0 < n <= 5`) taken pair by pair; none where it does not parse (the template checks say so).
    The loader parses each text once for the three checks that read them (a 4,000-step
    playbook parsed each when: three times)."""
    try:
        parsed = TEXT_ENV.parse("{{ " + text + " }}" if expression else text)
    except TemplateSyntaxError:
        return []
    pairs: list[Comparison] = []
    for compare in parsed.find_all(nodes.Compare):
        left = compare.expr
        for operator in compare.ops:
            pairs.append((left, operator.op, operator.expr))
            left = operator.expr
    return pairs + comparing_tests(parsed)


def comparing_tests(parsed: nodes.Node) -> list[Comparison]:
    """(tested, operator, argument) of each `x is gt(y)`, `x is equalto 'pass'`, `x is in [...]`
    in `parsed` (COMPARING_TESTS), as the comparison it stands for."""
    return [(test.node, COMPARING_TESTS[test.name], test.args[0]) for test in parsed.find_all(nodes.Test)
            if test.name in COMPARING_TESTS and len(test.args) == 1 and not test.kwargs]


def _status_words_compared(left: nodes.Node, op: str, right: nodes.Node) -> list[tuple[str, str]]:
    """(step id, word) for one `left op right` that tests a step's status against words. A
    substring test is right when a status holds the word (`'fail' in steps.a.status`) or the
    text holds a status (`steps.a.status in 'failed error'`): a word that can match is none
    of them."""
    if op in ("in", "notin") and isinstance(right, nodes.Const) and isinstance(right.value, str):
        step = _status_of(left)
        matches = any(status in right.value for status in STATUSES)
        return [(step, right.value)] if step is not None and not matches else []
    if op in ("in", "notin") and _status_of(right) is not None:
        words = [w for w in _words(left) if not any(w in status for status in STATUSES)]
        return [(_status_of(right), w) for w in words]
    step = _status_of(left) or _status_of(right)
    if step is None:
        return []
    return [(step, w) for w in _words(left) + _words(right)]


def _status_of(node: nodes.Node) -> str | None:
    """ID of `steps.ID.status` or `steps['ID'].status`, else None."""
    read = step_result_read(node)
    return read[0] if read is not None and read[1] == "status" else None


def _words(node: nodes.Node) -> list[str]:
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (nodes.List, nodes.Tuple)):
        return [item.value for item in node.items if isinstance(item, nodes.Const) and isinstance(item.value, str)]
    return []


def _status_meant(word: str) -> str | None:
    lowered = word.strip().lower()
    if lowered in STATUSES:
        return lowered
    if lowered in _MEANT:
        return _MEANT[lowered]
    close = difflib.get_close_matches(lowered, STATUSES, n=1, cutoff=0.6)
    return close[0] if close else None


# A step's result fields that are numbers (runner/attempt.py, record.StepRecord).
_NUMBER_FIELDS = ("exit_code", "attempts", "duration_s")


def number_compared_with_text(pairs: list[Comparison]) -> tuple[str, str] | None:
    """(`exit_code` or `steps.ID.exit_code` as written, the quoted word) for the first number
    field of a step's result compared (==, !=, <, in, ...) with a string, among `comparisons`."""
    for left, op, right in pairs:
        field = number_field(left) or number_field(right)
        words = _words(left) + _words(right)
        if op in ("in", "notin") and isinstance(right, (nodes.List, nodes.Tuple)):
            words = _texts_not_beside_their_number(right)  # `exit_code in [0, '0']` holds 0
        if field is not None and words:
            return field, words[0]
    return None


def _texts_not_beside_their_number(listed: nodes.List | nodes.Tuple) -> list[str]:
    """The strings of a list literal but those whose number the list holds too."""
    numbers = {item.value for item in listed.items if isinstance(item, nodes.Const) and type(item.value) in (int, float)}
    return [w for w in _words(listed) if not (NUMBER_TEXT.fullmatch(w) and float(w) in numbers)]


def number_field(node: nodes.Node) -> str | None:
    """`exit_code` or `steps.ID.exit_code` (attempts, duration_s) as written, else None."""
    if isinstance(node, nodes.Name) and node.name == "exit_code":
        return "exit_code"
    read = step_result_read(node)
    return f"steps.{read[0]}.{read[1]}" if read is not None and read[1] in _NUMBER_FIELDS else None


def number_hint(field: str, word: str) -> str:
    try:
        number = float(word)
    except ValueError:
        return f"{field} is a number ({'0 for success' if field.endswith('exit_code') else 'compare it with one'})"
    return f"write the number without quotes: {word.strip()}, not {word!r}"


def number_facts(steps: list[Any]) -> set[str]:
    """Facts every capture of which is a regex of type auto, int or float: numbers whenever the
    text they match is one (a JSON capture keeps the JSON's own type)."""
    numeric: set[str] = set()
    other: set[str] = set()
    for step in steps:
        for capture in step.capture:
            names = [capture.name] if capture.name else list(re.compile(capture.regex).groupindex) if capture.regex else []
            # a default: "0" is the text when nothing matches; all: true makes a list
            numbers = (capture.regex is not None and capture.type in ("auto", "int", "float") and not capture.all
                       and not isinstance(capture.default, str))
            (numeric if numbers else other).update(names)
    return numeric - other


def fact_compared_with_number_text(pairs: list[Comparison], facts: set[str]) -> tuple[str, str] | None:
    """(fact name, the quoted word) for `facts.n == "5"` where n is one of `facts`."""
    if not facts:
        return None
    for left, op, right in pairs:
        found = _fact_against_number_text(left, op, right, facts)
        if found is not None:
            return found
    return None


def _fact_against_number_text(left: nodes.Node, op: str, right: nodes.Node, facts: set[str]) -> tuple[str, str] | None:
    """One `left op right` of a comparison. `'13' in facts.version` is a substring test, valid
    when the capture is text ((\\S+) matched 0.5.13), and `facts.gid in [0, '0']` holds the
    number too: neither is refused."""
    if op in ("in", "notin"):
        if _number_fact(left, facts) is None or not isinstance(right, (nodes.List, nodes.Tuple)):
            return None
        words = [w for w in _texts_not_beside_their_number(right) if NUMBER_TEXT.fullmatch(w)]
        return (_number_fact(left, facts), words[0]) if words else None
    for fact_side, word_side in ((left, right), (right, left)):
        name = _number_fact(fact_side, facts)
        words = [w for w in _words(word_side) if NUMBER_TEXT.fullmatch(w)] if name else []
        if words:
            return name, words[0]
    return None


def _number_fact(node: nodes.Node, facts: set[str]) -> str | None:
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name == "facts" \
            and node.attr in facts:
        return node.attr
    return None
