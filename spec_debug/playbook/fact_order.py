"""`facts.X` read before the step that captures X has run.

Steps run in file order, so a `when: facts.num_steps > 1` above the step whose `capture:` sets
num_steps can never see it: the step errors on every host ("facts.num_steps is not set"), or,
behind an `is defined` guard, is skipped on every host while the run passes. The same holds for
a `run:` template, and for an `expect:`/`until:` that reads a later step's capture. Validation
catches it with the line, as it already does for `steps.X` of a later step.
"""

from __future__ import annotations

import re
from typing import Any

from spec_debug.playbook.models import Playbook, Step
from spec_debug.playbook.templating import attributes_of

# Read after this step's own command and captures (runner/attempt.py evaluates them on the
# attempt's result): a capture of the same step counts as earlier for these.
_AFTER_OWN_CAPTURES = ("until", "that")


def captured_names(step: Step) -> list[str]:
    """The fact names a step's capture: list sets (regex group names, or its name:)."""
    names: list[str] = []
    for capture in step.capture:
        if capture.name:
            names.append(capture.name)
        elif capture.regex:
            names.extend(re.compile(capture.regex).groupindex)
    return names


def first_captures(playbook: Playbook) -> dict[str, int]:
    """Each captured fact name -> the index of the first step that captures it."""
    first: dict[str, int] = {}
    for index, step in enumerate(playbook.steps):
        for name in captured_names(step):
            first.setdefault(name, index)
    return first


def fact_read_too_early(playbook: Playbook, first: dict[str, int], index: int, path: tuple[Any, ...], text: str,
                        is_expression: bool) -> tuple[str, int] | None:
    """(fact name, index of the step that captures it) when the template at `path` of step
    `index` reads a fact that only a later step captures; else None.

    A probe's facts are not known before it runs (probes/registry.py: parse returns any keys),
    so an earlier probe step might set the name too: then nothing is said."""
    own_counts = path[-1] in _AFTER_OWN_CAPTURES
    last_earlier = index if own_counts else index - 1
    if any(s.probe is not None for s in playbook.steps[:last_earlier + 1]):
        return None
    for name in attributes_of(text, "facts", expression=is_expression):
        at = first.get(name)
        if at is not None and at > last_earlier:
            return name, at
    return None
