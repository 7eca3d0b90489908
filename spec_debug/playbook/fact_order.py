"""`facts.X` read before the step that captures X has run, or that no step captures at all.

Steps run in file order, so a `when: facts.num_steps > 1` above the step whose `capture:` sets
num_steps can never see it: the step errors on every host ("facts.num_steps is not set"), or,
behind an `is defined` guard, is skipped on every host while the run passes. The same holds for
a `run:` template, and for an `expect:`/`until:` that reads a later step's capture. Validation
catches it with the line, as it already does for `steps.X` of a later step.

A name no step captures, spelt like one a step does, is a typo (`facts.num_step` for num_steps):
behind `when: facts.num_step is defined` the check was skipped on every host and the run
passed, the very bug (SD101, one drafting step) it was written to catch going unreported.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass
from typing import Any

from jinja2 import nodes

from spec_debug.playbook.models import Playbook, Step
from spec_debug.playbook.templating import TEXT_ENV, attributes_of, step_result_attributes

# Read after this step's own command and captures (runner/attempt.py evaluates them on the
# attempt's result): a capture of the same step counts as earlier for these.
_AFTER_OWN_CAPTURES = ("until", "that")

# What `facts.NAME` is when NAME is a method of the dict: Jinja looks an attribute up before an
# item (jinja2/sandbox.py, SandboxedEnvironment.getattr), so these are never read as facts.
MAPPING_METHODS = frozenset(name for name in dir(dict) if not name.startswith("_"))


def captured_names(step: Step) -> list[str]:
    """The fact names a step's capture: list sets (regex group names, or its name:)."""
    names: list[str] = []
    for capture in step.capture:
        if capture.name:
            names.append(capture.name)
        elif capture.regex:
            names.extend(re.compile(capture.regex).groupindex)
    return names


@dataclass(frozen=True)
class CaptureOrder:
    """Where facts are first set, found once per playbook: asked per template, a scan of the
    earlier steps made validating a 10,000-step playbook quadratic (46 s)."""

    first: dict[str, int]  # captured fact name -> index of the first step that captures it
    first_probe: int  # index of the first probe step (len(steps) when none)
    first_probe_or_fetch: int  # index of the first probe or fetch step (len(steps) when none)


# The facts a fetch step records (runner/engine.py, _fetch; runner/fetch_limit.py, facts): in
# its own step record only, read as steps.ID.facts.NAME; they are not merged into the host's
# facts as a run or probe step's captures are.
FETCH_FACTS = frozenset({"fetched", "fetch_skipped", "fetch_cut", "fetch_limit", "fetch_disk_bound", "fetch_timed_out",
                         "fetch_not_reached", "fetch_given_up", "fetch_timeout"})


def fetch_fact_read(playbook: Playbook, order: "CaptureOrder", index: int, text: str, is_expression: bool,
                    own_counts: bool = False) -> tuple[str, str] | None:
    """(fact name, id of the fetch step that records it) when the template of step `index` reads
    facts.NAME for a fetch step's fact that no capture sets and no earlier probe may set; else None."""
    last_earlier = index if own_counts else index - 1
    if "fetch" not in text or order.first_probe <= last_earlier or order.first_probe_or_fetch > last_earlier:
        return None  # every fetch fact's name holds "fetch"; no fetch (nor probe) before: nothing to say
    for name in attributes_of(text, "facts", expression=is_expression):
        if name in FETCH_FACTS and name not in order.first:
            fetch_steps = [s.id for s in playbook.steps[: last_earlier + 1] if s.fetch is not None]
            if fetch_steps:
                return name, fetch_steps[-1]
    return None


def first_captures(playbook: Playbook) -> CaptureOrder:
    first: dict[str, int] = {}
    for index, step in enumerate(playbook.steps):
        for name in captured_names(step):
            first.setdefault(name, index)
    steps = playbook.steps
    first_probe = next((i for i, s in enumerate(steps) if s.probe is not None), len(steps))
    either = next((i for i, s in enumerate(steps) if s.probe is not None or s.fetch is not None), len(steps))
    return CaptureOrder(first, first_probe, either)


def fact_read_too_early(order: CaptureOrder, index: int, path: tuple[Any, ...], text: str,
                        is_expression: bool) -> tuple[str, int] | None:
    """(fact name, index of the step that captures it) when the template at `path` of step
    `index` reads a fact that only a later step captures; else None.

    A probe's facts are not known before it runs (probes/registry.py: parse returns any keys),
    so an earlier probe step might set the name too: then nothing is said."""
    own_counts = path[-1] in _AFTER_OWN_CAPTURES
    last_earlier = index if own_counts else index - 1
    if order.first_probe <= last_earlier:
        return None
    for name in attributes_of(text, "facts", expression=is_expression):
        at = order.first.get(name)
        if at is not None and at > last_earlier:
            return name, at
    return None


def fact_misspelt(order: CaptureOrder, index: int, path: tuple[Any, ...], text: str,
                  is_expression: bool, in_finding: bool = False) -> tuple[str, str] | None:
    """(fact name, the captured name it is close to) when the template at `path` of step
    `index` tests for a fact that no step of the playbook captures, spelt like one that a step
    does; else None. A name like no captured one is left alone (a fact the author means to
    test for absence, tests/core/test_hardening18_fact_order.py), and so is an unguarded read:
    the run fails the step and names the fact (tests/core/test_hardening13_until_errors.py).

    Probe steps set facts not known before they run, and fetch steps set their own
    (`fetched`, `fetch_skipped`, ... runner/engine.py): with either at or before this step
    nothing is said.

    `in_finding`: a finding's title, remediation or evidence, rendered after the step's own
    captures; any read counts there, since an unset fact is shown mid-incident as
    "[template error: ...]" in the finding's title."""
    own_counts = in_finding or path[-1] in _AFTER_OWN_CAPTURES
    last_earlier = index if own_counts else index - 1
    if order.first_probe_or_fetch <= last_earlier:
        return None
    read = attributes_of(text, "facts", expression=is_expression) if in_finding else _tested_for_presence(text, is_expression)
    for name in read:
        if name in MAPPING_METHODS:
            continue  # `facts.items()`, `facts.get('x')`: Jinja's facts.NAME is the dict's method, no fact
        close = difflib.get_close_matches(name, list(order.first), n=1) if name not in order.first else []
        if close:
            return name, close[0]
    return None


def _tested_for_presence(text: str, is_expression: bool) -> list[str]:
    """The X of `facts.X is defined` / `is undefined` / `facts.X | default(...)`: reads the run
    takes no note of when X is never set (an unguarded read fails the step and names X)."""
    parsed = TEXT_ENV.parse("{{ " + text + " }}" if is_expression else text)
    tested = [n.node for n in parsed.find_all(nodes.Test) if n.name in ("defined", "undefined")]
    tested += [n.node for n in parsed.find_all(nodes.Filter) if n.name in ("default", "d")]
    names = [t.attr for t in tested if isinstance(t, nodes.Getattr) and isinstance(t.node, nodes.Name)
             and t.node.name == "facts"]
    names += [t.arg.value for t in tested if isinstance(t, nodes.Getitem) and isinstance(t.node, nodes.Name)
              and t.node.name == "facts" and isinstance(t.arg, nodes.Const) and isinstance(t.arg.value, str)]
    return list(dict.fromkeys(names))


def step_fact_never_set(steps_by_id: dict[str, Step], text: str, is_expression: bool) -> tuple[str, str, list[str]] | None:
    """(step id, fact name, the names that step does set) when the template reads
    `steps.ID.facts.NAME` for a run step whose capture: does not set NAME, or a fetch step's fact
    that is none of FETCH_FACTS; else None. A probe step's facts are known only once it ran."""
    for other, field, name in step_result_attributes(text, expression=is_expression):
        step = steps_by_id.get(other)
        if field != "facts" or step is None or step.probe is not None or name in MAPPING_METHODS:
            continue
        sets = sorted(FETCH_FACTS) if step.fetch is not None else captured_names(step)
        if name not in sets:
            return other, name, sets
    return None
