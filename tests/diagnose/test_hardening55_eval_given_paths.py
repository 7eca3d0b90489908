"""The drafter_accuracy playbook given a draft_model or target_model that is no checkpoint
directory here (a typo; the run folder holding draft/ and target/). The probe resolved such a
path to nothing: the draft was "not checked: needs a draft checkpoint (--var draft_model)",
asking for the var the user had given, and a target that is not there was replaced, with
only a note, by the verifier the draft's config names - the accuracy scored against another
model than the one asked for. The path now goes to the drafter as given, whose error names
what is wrong with it. Runs the real playbook with the local transport on a world saved by
speculators 0.9.0."""

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
    return save_informative_world(tmp_path_factory.mktemp("h55-given-paths"), seed=1)


def _run(out: Path, draft: Path, target: Path, data: Path):
    loaded = load_playbook("drafter_accuracy")
    variables = {"draft_model": str(draft), "target_model": str(target), "hidden_states": str(data),
                 "python": sys.executable, "device": "cpu", "max_samples": "3"}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OMP_NUM_THREADS", "1")
        run = Run(loaded, [HostTarget(name="h", connect=LocalTransport, transport="local")],
                  RunStore.create(out, loaded.playbook.name), variables, RunOptions(reporter=Reporter()))
        return run.execute()


def _eval_lines(record) -> list[str]:
    return [" ".join(" ".join(f.evidence).split()) for f in record.findings if f.step == "drafter_eval"]


def test_a_run_folder_as_draft_model_is_named_not_asked_for(tmp_path, world):
    lines = _eval_lines(_run(tmp_path / "run", world, world / "target", world / "data"))
    assert not [line for line in lines if "needs a draft checkpoint" in line], lines
    assert [line for line in lines if "checkpoints below it: draft, target" in line], lines


def test_a_missing_target_is_not_replaced_by_the_config_s_verifier(tmp_path, world):
    record = _run(tmp_path / "run", world / "draft", world / "target-typo", world / "data")
    # the one line of the step: no accuracy measured against the verifier the config names
    [(code, line)] = [(f.code, " ".join(f.evidence[0].split())) for f in record.findings
                      if f.step == "drafter_eval"]
    assert code == "SD003", line
    assert f"{world / 'target-typo'}: target checkpoint directory not found" in line, line
