"""`drafter eval|layout|vocab --model OUT` where OUT is the folder a run leaves the draft and
its hidden-state dump in (OUT/draft with config.json, OUT/data with hs_*.safetensors):
the dump's safetensors files read as weights, so the error called data/ "training saves with
weights but no config below it" and told the user to put a config beside the hidden states,
never naming OUT/draft. The dump is now no training save, and the draft below is offered.
The draft and dump are saved by speculators 0.9.0 (and vLLM's hs_<i>.safetensors shape)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.eagle3._world import informative_world, runner, torch  # noqa: F401

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h55_run_folder", seed=4)


def _run_folder(world: Path) -> Path:
    out = world.parent / "run_out"
    if not out.exists():
        out.mkdir()
        shutil.copytree(world / "draft", out / "draft")
        shutil.copytree(world / "data", out / "data")
    return out


@pytest.mark.parametrize("command", ["eval", "layout", "vocab"])
def test_a_dump_beside_the_draft_is_no_training_save(world, command):
    out = _run_folder(world)
    data = [] if command == "vocab" else ["--data", str(world / "data")]
    result = runner.invoke(drafter_app, [command, "--model", str(out), *data,
                                         "--target", str(world / "target")])
    assert result.exit_code == 2, result.output
    text = " ".join(result.output.split())
    assert "training saves" not in text and "beside the weights" not in text, text
    assert "the directory holds checkpoints below it: draft" in text, text
    assert f"e.g. {out / 'draft'}" in text, text
    assert "Traceback" not in result.output
