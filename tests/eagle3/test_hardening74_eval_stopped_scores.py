"""`drafter eval` stopped part way (Ctrl-C, or SIGTERM from a job runner) keeps what it scored.

An evaluation of a large dump runs for hours on a CPU. Before: a stop said "after 2 samples
scored, before any result: --max-samples 2 scores as many and reports them", so the scores of
those hours were lost and the way to see them was to spend the hours again. Now the line gives
the scores of the samples scored in full so far (full accuracy per step over its rows, target
acceptance at step 0), the same figures `drafter eval --max-samples 2` reports; still exit 130.
(The stop is raised where the next sample is scored, as a Ctrl-C arrives there; the draft,
target and dump are real, as speculators saved them.)
"""

from __future__ import annotations

import json

import pytest

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3 import evaluate  # noqa: E402
from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.errors import SignalInterrupt  # noqa: E402

world = informative_world("hardening74-eval-stopped-scores", seed=741)


def _stop_at(monkeypatch, call: int, stop: BaseException) -> None:
    real = evaluate.score_sample
    calls = [0]

    def score_sample(*args, **kwargs):
        calls[0] += 1
        if calls[0] == call:
            raise stop
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluate, "score_sample", score_sample)


def _eval(world, *extra: str):
    return runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                       str(world / "data"), "--target", str(world / "target"),
                                       "--steps", "2", *extra])


@pytest.mark.parametrize("stop", [KeyboardInterrupt(), SignalInterrupt("terminated (SIGTERM)")])
def test_a_stop_says_the_scores_so_far(world, monkeypatch, stop):
    first_two = _eval(world, "--max-samples", "2", "--json")
    assert first_two.exit_code == 0, first_two.output
    full = json.loads(first_two.output)
    correct, total = ([int(c) for c in full["counts"]["full_correct"]],
                      [int(t) for t in full["counts"]["full_total"]])
    target0 = int(full["counts"]["target_correct"][0])

    _stop_at(monkeypatch, 3, stop)
    result = _eval(world)
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    text = " ".join(result.output.split())
    why = "interrupted (Ctrl-C)" if type(stop) is KeyboardInterrupt else "terminated (SIGTERM)"
    assert text == (
        f"stopped: {why} after 2 samples scored, before the whole dump's result; so far full acc "
        f"per step {correct[0] / total[0]:.4f} ({correct[0]} of {total[0]}), "
        f"{correct[1] / total[1]:.4f} ({correct[1]} of {total[1]}); target accept at step 0 "
        f"{target0 / total[0]:.4f} ({full['tokens']} rows of 2 samples): --max-samples 2 "
        "scores the same samples and reports them in full"), text
    # the figures are the ones --max-samples 2 reports
    assert f"{full['full_accuracy'][0]:.4f}" == f"{correct[0] / total[0]:.4f}"


def test_a_stop_before_any_sample_says_so(world, monkeypatch):
    _stop_at(monkeypatch, 1, KeyboardInterrupt())
    result = _eval(world)
    assert result.exit_code == 130, result.output
    assert " ".join(result.output.split()) == "stopped: interrupted (Ctrl-C) before any sample was scored"
