"""`drafter eval` / `drafter layout` stopped part way (Ctrl-C, or SIGTERM from a job runner).

An evaluation of a large dump runs for hours on a CPU. Before: a Ctrl-C exited 130 and printed
nothing at all: not that it had stopped, nor how many samples it had scored. Now one line says
it stopped, why, and how far it got, with the --max-samples that scores as many and reports
them; still exit 130. (The stop is raised where a sample is scored, as a Ctrl-C arrives there;
the draft, target and dump are real.)
"""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner

from spec_debug.eagle3 import evaluate
from spec_debug.eagle3.commands import drafter_app
from spec_debug.errors import SignalInterrupt
from tests.eagle3._world import informative_world

runner = CliRunner()

world = informative_world("hardening73-eval-stopped", seed=733)


def _stop_at(monkeypatch, call: int, stop: BaseException) -> None:
    """score_sample raises `stop` on its `call`-th call (1-based), as a Ctrl-C there would."""
    real = evaluate.score_sample
    calls = [0]

    def score_sample(*args, **kwargs):
        calls[0] += 1
        if calls[0] == call:
            raise stop
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluate, "score_sample", score_sample)


@pytest.mark.parametrize("as_json", [False, True])
def test_ctrl_c_says_how_far_eval_got(world, monkeypatch, as_json):
    _stop_at(monkeypatch, 3, KeyboardInterrupt())
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(world / "data"), "--target", str(world / "target")]
                           + (["--json"] if as_json else []))
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    text = " ".join(result.output.split())
    # hardening74: the line now gives the scores of those 2 samples (it said "before any
    # result", and the hours they took were lost; test_hardening74_eval_stopped_scores)
    assert text.startswith("stopped: interrupted (Ctrl-C) after 2 samples scored, before the whole "
                           "dump's result; so far full acc per step "), text
    assert text.endswith("--max-samples 2 scores the same samples and reports them in full"), text


def test_sigterm_before_any_sample(world, monkeypatch):
    _stop_at(monkeypatch, 1, SignalInterrupt("terminated (SIGTERM)"))
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(world / "data"), "--target", str(world / "target")])
    assert result.exit_code == 130, result.output
    text = " ".join(result.output.split())
    assert "stopped: terminated (SIGTERM) before any sample was scored" in text, text


def test_ctrl_c_in_layout_says_it_stopped(world, monkeypatch):
    from spec_debug.eagle3 import layout

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(layout, "probe", stopped)
    result = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(world / "data"), "--target", str(world / "target")])
    assert result.exit_code == 130, result.output
    assert "Traceback" not in result.output
    assert "stopped: interrupted (Ctrl-C)" in result.output, result.output
