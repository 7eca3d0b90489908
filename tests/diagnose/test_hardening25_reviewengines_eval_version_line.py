"""drafter_accuracy: an engine version the table cannot place is one SD004 line (review of round 25).

The drafter_eval probe takes the newest conventions for `--var engine_version=custom-build` (or an
untagged 0.1.devN build) and writes the engine step's line as `engine_version_note`, but the eval
step dropped it: drafter_accuracy has no engine step, so the run said nothing and its engine
accuracy was silently the newest release's. Now the eval step says it once, with the engine
step's fix (engines.VERSION_PROVIDE)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import eval_step
from spec_debug.eagle3 import engines
from spec_debug.probes.registry import ProbeContext

ACCURACY = {"full_accuracy": [0.71, 0.52], "notes": []}


def _findings(version: str, note: str | None, problem: str | None = None) -> list:
    host = {"args": {"engine": "vllm", "engine_version": version, "claimed_accuracy": "0.72"},
            "reference": ACCURACY, "engine": {**ACCURACY, "semantics": "vllm"}}
    if note:
        host["engine_version_note"] = note
        host["engine_version_problem"] = problem  # as the probe writes them (drafter_eval._placed_version)
    facts = eval_step.parse(host)
    ctx = ProbeContext(step_id="drafter_eval", host="gpu01", args=host["args"], facts=facts,
                       host_facts=dict(facts))
    return eval_step.check(ctx)


@pytest.mark.parametrize("version, problem", [("custom-build", "unreadable"),
                                              ("0.1.dev7557+g977180c", "untagged")])
def test_the_probes_version_note_is_one_sd004_line_with_the_fix(version, problem):
    note = engines.version_line("vllm", problem, f"{version} (engine_version)")
    lines = [f for f in _findings(version, note, problem) if note in " ".join(f.evidence)]
    assert len(lines) == 1 and lines[0].code == "SD004"
    assert lines[0].facts["provide"] == engines.VERSION_PROVIDE[problem]


def test_a_placed_version_adds_no_line():
    assert not [f for f in _findings("0.22.0", None) if "release" in " ".join(f.evidence)]


@pytest.mark.parametrize("version, problem", [("custom-build", "unreadable"),
                                              ("0.1.dev7557+g977180c", "untagged")])
def test_the_probe_writes_the_problem_the_eval_step_names_the_fix_from(version, problem):
    from spec_debug.probes.drafter_eval import _placed_version

    placed, said, note = _placed_version("vllm", version)
    assert placed is None and said == problem
    lines = [f for f in _findings(version, note, said) if note in " ".join(f.evidence)]
    assert lines[0].facts["provide"] == engines.VERSION_PROVIDE[problem]
