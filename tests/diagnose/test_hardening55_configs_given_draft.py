"""The configs step given a draft_model that holds no checkpoint on the host (a typo): its
line said only "no draft config.json could be read" and asked for --var draft_model=DIR,
the var the user had given, without naming the path. It now names the draft_model it
looked at. Runs the real hidden_state_format playbook with the local transport on a world
saved by speculators 0.9.0; without any draft_model the line stays as it was."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.playbook.loader import load_playbook  # noqa: E402
from spec_debug.runner.engine import HostTarget, Run, RunOptions  # noqa: E402
from spec_debug.runner.local import LocalTransport  # noqa: E402
from spec_debug.runner.reporter import Reporter  # noqa: E402
from spec_debug.store import RunStore  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("h55-configs-draft"), seed=1)


def _configs_lines(out: Path, draft: str, world: Path) -> list[str]:
    loaded = load_playbook("hidden_state_format")
    variables = {"draft_model": draft, "target_model": str(world / "target"),
                 "python": sys.executable, "device": "cpu", "engine": "vllm", "engine_version": "0.12.0"}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OMP_NUM_THREADS", "1")
        record = Run(loaded, [HostTarget(name="h", connect=LocalTransport, transport="local")],
                     RunStore.create(out, loaded.playbook.name), variables,
                     RunOptions(reporter=Reporter())).execute()
    return [" ".join(" ".join(f.evidence).split()) for f in record.findings if f.step == "configs"]


def test_a_draft_model_that_is_not_there_is_named(tmp_path, world):
    typo = world / "draft-typo"
    [line] = _configs_lines(tmp_path / "run", str(typo), world)
    assert f"draft_model {typo} is no checkpoint directory on this host" in line, line
