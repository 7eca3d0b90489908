"""A folder holding both the draft and its verifier (OUT/draft, OUT/target, as a run or a
tutorial lays them out) passed as --model: the error listed both and its hint offered the
last by name, OUT/target, as --model - the verifier, which the draft commands then refuse.
The hint now offers the draft for --model and the verifier for --target. Both checkpoints
are saved by speculators 0.9.0 and transformers."""

from __future__ import annotations

from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h55_below_hint", seed=6)


def _error(args: list[str]) -> str:
    result = runner.invoke(drafter_app, args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    return " ".join(result.output.split())


def test_the_draft_is_offered_as_model(world: Path):
    text = _error(["eval", "--model", str(world), "--data", str(world / "data"),
                   "--target", str(world / "target")])
    assert "checkpoints below it: draft, target" in text, text
    assert f"pass one checkpoint directory as --model, e.g. {world / 'draft'}" in text, text


def test_the_verifier_is_offered_as_target(world: Path):
    text = _error(["eval", "--model", str(world / "draft"), "--data", str(world / "data"),
                   "--target", str(world)])
    assert f"pass one checkpoint directory as --target, e.g. {world / 'target'}" in text, text
