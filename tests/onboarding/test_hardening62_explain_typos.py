"""A new engineer types what the report or the demo printed, with a slip: the letter O for a
zero (`explain SD2O1`), a digit twice (`SD2011`), `SO201`; a step's name with a dash or a
missing letter (`explain hidden-layout`, `explain drafter_evl`). `findings SD2O1` already
suggested SD201; `explain` answered "no playbook file" with the list of shipped playbooks (or,
for hidden-layout, the concept 'concat order'), never the code or the step that was meant."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("typed", ["SD2O1", "sd2o1", "SD2011", "SO201", "5D201", "SD-2O1"])
def test_a_mistyped_finding_code_is_suggested(typed: str) -> None:
    result = run_cli("explain", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        "  hint: did you mean the finding code SD201? `spec-debug explain SD201` explains it")


@pytest.mark.parametrize(("typed", "step", "playbook"), [
    ("hidden-layout", "hidden_layout", "playbooks hidden_state_format, perf_regression"),
    ("hidden_layot", "hidden_layout", "playbooks hidden_state_format, perf_regression"),
    ("drafter_evl", "drafter_eval", "playbooks drafter_accuracy, perf_regression"),
    ("launch_flag", "launch_flags", "playbook perf_regression"),
])
def test_a_mistyped_step_of_a_shipped_playbook_is_suggested(typed: str, step: str, playbook: str) -> None:
    result = run_cli("explain", typed)
    assert result.code == 2
    assert result.stderr.splitlines()[-1] == (
        f"  hint: did you mean {step!r}? {step} is a step of the shipped {playbook}: "
        f"`spec-debug explain {step}` says what it checks and why")
    # and the suggestion works as printed
    assert run_cli("explain", step).code == 0


def test_words_that_are_neither_keep_their_hint() -> None:
    # a well-formed code outside the catalog, a playbook typo and a concept typo are unchanged
    assert "is not in the finding catalog" in run_cli("explain", "SD999").stderr
    assert run_cli("explain", "perf_regresion").stderr.splitlines()[-1] == "  hint: did you mean 'perf_regression'?"
    assert "the concept 'accept length'?" in run_cli("explain", "accept lenght").stderr
    for word in ("gpu01", "h200", "topkk"):
        assert "did you mean the finding code" not in run_cli("explain", word).stderr
