"""The hidden_state_format playbook given hidden_states and a draft_model that is not a
checkpoint here (a typo; the run folder holding draft/ and target/): the layout step said
"conventions table only: no hidden states to run the layout probe", asking for
--var hidden_states, which the user had passed, and never named the draft path. The path now
goes to the drafter as given (hostfiles.given_model), whose error names it. Runs the real
playbook with the local transport on a world saved by speculators 0.9.0."""

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
    return save_informative_world(tmp_path_factory.mktemp("h55-given-draft"), seed=1)


def _layout_lines(out: Path, draft: Path, world: Path) -> list[str]:
    loaded = load_playbook("hidden_state_format")
    variables = {"draft_model": str(draft), "target_model": str(world / "target"),
                 "hidden_states": str(world / "data"), "python": sys.executable, "device": "cpu",
                 "max_samples": "3", "engine": "vllm", "engine_version": "0.12.0"}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OMP_NUM_THREADS", "1")
        record = Run(loaded, [HostTarget(name="h", connect=LocalTransport, transport="local")],
                     RunStore.create(out, loaded.playbook.name), variables,
                     RunOptions(reporter=Reporter())).execute()
    return [" ".join(" ".join(f.evidence).split()) for f in record.findings if f.step == "hidden_layout"]


def test_a_missing_draft_is_named_not_the_hidden_states(tmp_path, world):
    lines = _layout_lines(tmp_path / "run", world / "draft-typo", world)
    assert not [line for line in lines if "no hidden states" in line], lines
    assert [line for line in lines if f"{world / 'draft-typo'}: draft checkpoint directory not found" in line], lines


def test_a_run_folder_as_draft_names_the_draft_below(tmp_path, world):
    lines = _layout_lines(tmp_path / "run", world, world)
    assert not [line for line in lines if "no hidden states" in line], lines
    assert [line for line in lines if "checkpoints below it: draft, target" in line], lines
