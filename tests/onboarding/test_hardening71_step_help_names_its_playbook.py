"""`spec-debug run hidden_state_format --step`, `?` at its first step (engine): "spec-debug explain
engine says more about this step". `explain engine` walks through perf_regression's engine step,
whose why is another (the version's effect on norm flags and layer ids, not the capture
convention alone). The help now names the command that explains the step on screen: `explain
ID` where that is the step, else `explain PLAYBOOK ID`."""

from __future__ import annotations

from spec_debug.playbook.loader import load_playbook
from spec_debug.stepthrough import _help_text
from tests.conftest import run_cli


def _explain_line(playbook: str, step_id: str) -> str:
    step = next(s for s in load_playbook(playbook).playbook.steps if s.id == step_id)
    [line] = [line for line in _help_text("gpu01", step).splitlines() if "spec-debug explain" in line]
    return line.strip()


def test_a_step_explain_id_gives_is_named_by_its_id():
    assert _explain_line("perf_regression", "engine") == "spec-debug explain engine says more about this step"
    assert _explain_line("host_smoke", "free_disk") == "spec-debug explain free_disk says more about this step"


def test_another_playbooks_step_of_that_id_is_named_with_its_playbook():
    line = _explain_line("hidden_state_format", "engine")
    assert line == "spec-debug explain hidden_state_format engine says more about this step"
    # and that command explains the step on screen, with its why
    why = next(s for s in load_playbook("hidden_state_format").playbook.steps if s.id == "engine").why
    result = run_cli("explain", "hidden_state_format", "engine")
    assert result.code == 0 and result.stdout.startswith("# Walkthrough: `hidden_state_format`, step `engine`")
    assert " ".join(why.split()[:8]) in " ".join(result.stdout.split())
    assert " ".join(why.split()[:8]) not in " ".join(run_cli("explain", "engine").stdout.split())


def test_the_line_fits_80_columns():
    assert len("  " + _explain_line("hidden_state_format", "hidden_layout")) <= 80
    assert len("  " + _explain_line("hidden_state_format", "engine")) <= 80
