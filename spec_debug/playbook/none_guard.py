"""`facts.X is not defined or facts.X > 1` where a capture sets X: the guard never guards.

A regex or json capture that finds nothing still sets its fact, to None (runner/capture.py,
_first_or_default and apply_captures: the capture's default, None unless one is given). So
after the capture ran, `facts.X is defined` is true, `is not defined` false, and `None > 1`
fails the step (SD003) on exactly the host where the flag was missing: the run says "nothing
was checked" instead of skipping the check. Validation warns (the playbook still runs, and
the guard is right where the capture is skipped) with the guard that does work: `is none`.

Only a fact that a capture at or before the expression sets, with no default and not `all:`
(a list, never None), and that the same expression orders (`<`, `>`, `<=`, `>=`) or looks in
(`'EAGLE' in facts.X`: "argument of type 'NoneType' is not iterable", the same SD003), sizes
(`facts.X | length > 0`: "object of type 'NoneType' has no len()"), indexes (`facts.X[0]`), adds
to (`facts.X + 1`), negates (`-facts.X`), reads an attribute of (`facts.X.version`) or calls a
method of (`facts.X.startswith('EAGLE')`: "'None' has no attribute") is named:
`facts.X is defined and facts.X == 'on'` and `facts.X in ['a', 'b']` are fine with None.
`spec-debug run` says these warnings before it starts, as `playbooks validate` does.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from jinja2 import nodes

from spec_debug.errors import PlaybookError
from spec_debug.playbook.models import Playbook
from spec_debug.playbook.templating import TEXT_ENV
from spec_debug.playbook.yaml_nodes import dotted_path, load_positioned

_ORDERING = frozenset(("gt", "gteq", "lt", "lteq"))
# `and`/`or` are BinExpr too, and take None as false: only these.
_ARITHMETIC = (nodes.Add, nodes.Sub, nodes.Mul, nodes.Div, nodes.FloorDiv, nodes.Mod, nodes.Pow)
# Filters that size or walk their value: given None, jinja2's own (jinja2/filters.py: do_first
# iterates, do_last reverses, `length`/`count` are len) raise TypeError, so `facts.X | length > 0`
# fails the step as ordering it does. `string`, `lower`, `default`, `int` take None fine.
_SIZING_FILTERS = frozenset((
    "length", "count", "first", "last", "join", "sort", "list", "unique", "reverse", "sum", "min", "max",
    "map", "select", "reject", "selectattr", "rejectattr", "batch", "slice", "dictsort", "items", "groupby"))
# Read after the step's own command and captures (runner/attempt.py), as in fact_order.py.
_AFTER_OWN_CAPTURES = ("until", "that")


@dataclass(frozen=True)
class PlaybookWarning:
    """A playbook that loads and runs, but not as its author meant: `where: message`, and the fix."""

    located: str  # "file:line:column: message (at key.path)", as a PlaybookError says it
    hint: str
    error: PlaybookError | None = None  # the same, its parts apart (`playbooks validate --format json`)


def _nullable_captures(playbook: Playbook) -> dict[str, list[tuple[int, bool]]]:
    """fact name -> (step index, whether that capture leaves None when it matches nothing), in step order."""
    found: dict[str, list[tuple[int, bool]]] = {}
    for index, step in enumerate(playbook.steps):
        for capture in step.capture:
            nullable = not capture.all and capture.default is None
            names = [capture.name] if capture.name else list(re.compile(capture.regex or "").groupindex)
            for name in names:
                found.setdefault(name, []).append((index, nullable))
    return found


def _fact_name(node: nodes.Node) -> str | None:
    """X of `facts.X` or `facts['X']`."""
    if isinstance(node, nodes.Getattr) and isinstance(node.node, nodes.Name) and node.node.name == "facts":
        return node.attr
    if (isinstance(node, nodes.Getitem) and isinstance(node.node, nodes.Name) and node.node.name == "facts"
            and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str)):
        return node.arg.value
    return None


def _guarded_and_ordered(text: str) -> dict[str, str]:
    """The facts this expression tests with `is (not) defined` and also orders or looks in, and
    never tests for None: name -> what it does with the fact ("ordering it", "looking in it")."""
    parsed = TEXT_ENV.parse("{{ " + text + " }}")
    guarded: list[str] = []
    none_tested: set[str] = set()
    for test in parsed.find_all(nodes.Test):
        name = _fact_name(test.node)
        if name is not None and test.name in ("defined", "undefined"):
            guarded.append(name)
        elif name is not None and test.name == "none":
            none_tested.add(name)
    ordered: dict[str, str] = {}
    for compare in parsed.find_all(nodes.Compare):
        left = compare.expr
        for operand in compare.ops:
            if operand.op in _ORDERING:
                for n in (_fact_name(left), _fact_name(operand.expr)):
                    if n is not None:
                        ordered.setdefault(n, "ordering it")
            elif operand.op in ("in", "notin") and (n := _fact_name(operand.expr)) is not None:
                ordered.setdefault(n, "looking in it")  # `x in None` raises; `None in [...]` is only false
            elif operand.op in ("eq", "ne") and isinstance(operand.expr, nodes.Const) and operand.expr.value is None:
                name = _fact_name(left)
                if name is not None:
                    none_tested.add(name)
            left = operand.expr
    for indexed in parsed.find_all(nodes.Getitem):
        # `facts.X[0]`: "None has no element 0", the same SD003 (`facts['X']` itself is no index).
        if (n := _fact_name(indexed.node)) is not None:
            ordered.setdefault(n, "indexing it")
    for sum_ in parsed.find_all(_ARITHMETIC):
        # `facts.X + 1 > 2`: the runner refuses arithmetic on a None fact (SD003, "guard it");
        # `~` (Concat, no BinExpr) writes None as text and is fine.
        for side in (sum_.left, sum_.right):
            if (n := _fact_name(side)) is not None:
                ordered.setdefault(n, "doing arithmetic with it")
    for applied in parsed.find_all(nodes.Filter):
        # Only the filter applied to the fact itself: `facts.X | default('') | length` is never None.
        if applied.name in _SIZING_FILTERS and applied.node is not None and (n := _fact_name(applied.node)) is not None:
            ordered.setdefault(n, f"filtering it with `{applied.name}`")
    for call in parsed.find_all(nodes.Call):
        # `facts.X.startswith('EAGLE')`: None has no such method ("'None' has no attribute
        # 'startswith'"), the same SD003 on the host missing the flag.
        if isinstance(call.node, nodes.Getattr) and (n := _fact_name(call.node.node)) is not None:
            ordered.setdefault(n, "calling its methods")
    # `facts.X.version is defined` and `facts.X.version | default(0)` take the missing attribute fine.
    tolerated = {id(t.node) for t in parsed.find_all(nodes.Test) if t.name in ("defined", "undefined")}
    tolerated |= {id(f.node) for f in parsed.find_all(nodes.Filter) if f.name in ("default", "d")}
    for read in parsed.find_all(nodes.Getattr):
        # `facts.X.version > 1` (a json capture's object): the runner's strict undefined ends
        # it "'None' has no attribute 'version'", the same SD003 (after the calls, which say it better).
        if id(read) not in tolerated and (n := _fact_name(read.node)) is not None:
            ordered.setdefault(n, "reading its attributes")
    for signed in parsed.find_all((nodes.Neg, nodes.Pos)):
        # `-facts.X < 1`: "bad operand type for unary -: 'NoneType'", refused as arithmetic is.
        if (n := _fact_name(signed.node)) is not None:
            ordered.setdefault(n, "negating it" if isinstance(signed, nodes.Neg) else "doing arithmetic with it")
    return {n: ordered[n] for n in dict.fromkeys(guarded) if n in ordered and n not in none_tested}


def _fixed(text: str, name: str, same_step: bool) -> str:
    """The expression with the guard that works. A fact of an earlier step may also be unset (that
    step skipped), so there the defined test stays and the None test joins it."""
    def replace(match: re.Match[str]) -> str:
        written, negated = match.group(1), bool(match.group(2)) or match.group(3) == "undefined"
        if same_step:
            return f"{written} is {'none' if negated else 'not none'}"
        return (f"({written} is not defined or {written} is none)" if negated
                else f"({written} is defined and {written} is not none)")

    pattern = re.compile(r"(facts\." + re.escape(name) + r")\s+is\s+(not\s+)?(defined|undefined)\b")
    return pattern.sub(replace, text)


def none_guard_warnings(playbook: Playbook, text: str, source: str) -> list[PlaybookWarning]:
    """One warning per expression whose defined-test guard cannot see a capture that matched
    nothing, then one per unguarded read of a fact spelt like a captured one (misspelt_fact_warnings)."""
    return _guards_that_do_not_guard(playbook, text, source) + misspelt_fact_warnings(playbook, text, source)


def misspelt_fact_warnings(playbook: Playbook, text: str, source: str) -> list[PlaybookWarning]:
    """One warning per `when:`, `until:`, `expect.that:` or `run:` that reads, unguarded, a fact
    no step captures spelt like one a step does (`facts.sped > 1` where a step captures speed).

    Not refused, as a guarded one is (fact_order.fact_misspelt): an unguarded read fails the
    step on every host with the close name said (tests/core/test_hardening_runner_unset_fact.py),
    so nothing passes unseen; but that was learnt only on the hosts, mid-incident, while
    `playbooks validate` said "ok". No earlier probe or fetch step may set it (their facts are
    known only once they ran)."""
    from spec_debug.playbook.fact_order import MAPPING_METHODS, first_captures
    from spec_debug.playbook.templating import attributes_of

    order = first_captures(playbook)
    if not order.first:
        return []
    document: Any = None
    warnings: list[PlaybookWarning] = []
    for index, step in enumerate(playbook.steps):
        base = ("steps", index)
        sites = [(base + ("when",), step.when, True), (base + ("until",), step.until, True)]
        sites += [(base + ("expect", i, "that"), e.that, True) for i, e in enumerate(step.expect)]
        sites.append((base + ("run",), step.run, False))
        for path, expression, is_expression in sites:
            if not isinstance(expression, str) or "facts" not in expression:  # the cheap test first
                continue
            last = index if path[-1] in _AFTER_OWN_CAPTURES else index - 1
            if order.first_probe_or_fetch <= last:
                continue
            try:
                read = attributes_of(expression, "facts", expression=is_expression)
            except Exception:  # noqa: BLE001 - the loader said what is wrong with it
                continue
            for name in read:
                if name in MAPPING_METHODS or name in order.first:
                    continue
                close = difflib.get_close_matches(name, list(order.first), n=1)
                if not close:
                    continue  # a name like none captured: a fact the author tests for absence
                if document is None:
                    document = load_positioned(text, source)
                line, column = document.position(path) or (None, None)
                field = path[-1] if path[-1] != "that" else "expect.that"
                located = PlaybookError(
                    f"step {step.id!r} reads facts.{name} in {field}:, but no step captures {name!r}, so it is never "
                    "set and the step fails on every host",
                    path=source, line=line, column=column, key_path=dotted_path(path))
                hint = f"did you mean facts.{close[0]}? ({playbook.steps[order.first[close[0]]].id!r} captures it)"
                warnings.append(PlaybookWarning(located.message, hint, located))
                break
    return warnings


def _guards_that_do_not_guard(playbook: Playbook, text: str, source: str) -> list[PlaybookWarning]:
    captures = _nullable_captures(playbook)
    if not captures:
        return []
    document: Any = None
    warnings: list[PlaybookWarning] = []
    for index, step in enumerate(playbook.steps):
        base = ("steps", index)
        sites = [(base + ("when",), step.when), (base + ("until",), step.until)]
        sites += [(base + ("expect", i, "that"), e.that) for i, e in enumerate(step.expect)]
        for path, expression in sites:
            if not expression or "defined" not in expression:  # the cheap test first: most have no guard
                continue
            last = index if path[-1] in _AFTER_OWN_CAPTURES else index - 1
            for name, use in _guarded_and_ordered(expression).items():
                earlier = [(at, nullable) for at, nullable in captures.get(name, []) if at <= last]
                if not earlier or not earlier[-1][1]:
                    continue  # not captured yet (fact_order's error), or its latest capture has a default
                at = earlier[-1][0]
                if document is None:
                    document = load_positioned(text, source)
                line, column = document.position(path) or (None, None)
                field = path[-1] if path[-1] != "that" else "expect.that"
                by = "this step's capture" if at == index else f"the capture of step {playbook.steps[at].id!r}"
                located = PlaybookError(
                    f"step {step.id!r} guards facts.{name} with a defined test in {field}:, but {by} sets {name} to "
                    f"None when it matches nothing (defined), so {use} fails the step (SD003) instead of "
                    f"skipping the check",
                    path=source, line=line, column=column, key_path=dotted_path(path))
                fixed = _fixed(expression, name, same_step=at == index)
                hint = (f"write {fixed}" if fixed != expression
                        else f"test facts.{name} is none (or is not none) before {use}")
                warnings.append(PlaybookWarning(located.message, hint, located))
    return warnings
