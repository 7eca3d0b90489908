"""A playbook run's drafter lines named the `spec-debug drafter` options: a hidden-state dump
given as the draft was "pass this directory as --data and the draft checkpoint as --model", a
draft with no target scored against its config's verifier noted "pass --target to use
another", flags `spec-debug run` does not take. The probes now say the playbook's vars
(--var hidden_states, --var draft_model, --var target_model); a serving dump's error names
--var serving_dump; a suggested `spec-debug drafter ...` command keeps its own options. Runs
the real playbooks with the local transport on a world saved by speculators 0.9.0."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.playbook.loader import load_playbook  # noqa: E402
from spec_debug.probes import drafter_eval, hidden_layout  # noqa: E402
from spec_debug.probes.playbook_words import in_playbook_words  # noqa: E402
from spec_debug.runner.engine import HostTarget, Run, RunOptions  # noqa: E402
from spec_debug.runner.local import LocalTransport  # noqa: E402
from spec_debug.runner.reporter import Reporter  # noqa: E402
from spec_debug.store import RunStore  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

DRAFTER_FLAG = (" --data ", " --model ", " --target ", " --data\n", " --model\n")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("h56-playbook-words"), seed=1)


def _run(out: Path, playbook: str, **variables: str):
    loaded = load_playbook(playbook)
    variables = {"python": sys.executable, "device": "cpu", "max_samples": "3", **variables}
    with pytest.MonkeyPatch.context() as env:
        env.setenv("OMP_NUM_THREADS", "1")
        run = Run(loaded, [HostTarget(name="h", connect=LocalTransport, transport="local")],
                  RunStore.create(out, loaded.playbook.name), variables, RunOptions(reporter=Reporter()))
        return run.execute()


def _lines(record, step: str) -> list[str]:
    """Each finding's evidence and fix as one line: a probe's own hint is SD003's fix."""
    return [" ".join(" ".join([*f.evidence, f.remediation]).split()) + " " for f in record.findings if f.step == step]


def test_a_dump_given_as_the_draft_is_said_in_the_playbook_s_vars(tmp_path, world):
    record = _run(tmp_path / "run", "drafter_accuracy", draft_model=str(world / "data"),
                  target_model=str(world / "target"), hidden_states=str(world / "data"))
    lines = _lines(record, "drafter_eval")
    [line] = [line for line in lines if "a hidden-state dump" in line]
    assert "--var hidden_states" in line and "--var draft_model" in line, line
    assert not any(flag in line for flag in DRAFTER_FLAG), line


def test_the_verifier_note_names_the_target_var(world):
    out = drafter_eval.run({"draft_model": str(world / "draft"), "hidden_states": str(world / "data"),
                            "max_samples": "2"})
    [note] = [n for n in out["reference"]["notes"] if "speculators_config.verifier" in n]
    assert "pass --var target_model to use another" in note and "--target" not in note, note
    assert out["args"] == {"draft_model": str(world / "draft"), "hidden_states": str(world / "data"),
                           "max_samples": "2"}  # what the user gave, as given


def test_a_serving_dump_s_error_names_the_serving_dump_var(world):
    out = hidden_layout.run({"draft_model": str(world / "draft"), "target_model": str(world / "target"),
                             "serving_dump": str(world / "draft")})
    error = out["serving_dump_error"]
    assert "--var serving_dump" in error and "hidden_states" not in error and "--data" not in error, error


def test_a_suggested_drafter_command_keeps_its_options():
    said = in_playbook_words("rank it: spec-debug drafter layout --model /d --data /h --target /t; "
                             "or pass --target /t, --data=/h, --model DIR; --model-path stays")
    assert said == ("rank it: spec-debug drafter layout --model /d --data /h --target /t; "
                    "or pass --var target_model=/t, --var hidden_states=/h, --var draft_model=DIR; "
                    "--model-path stays")


def test_the_semantics_option_is_the_engine_var():
    # eagle3/loading.py's embedding note: "SGLang uses the target's: compare with --semantics sglang"
    assert in_playbook_words("SGLang uses the target's: compare with --semantics sglang, and re-export") == (
        "SGLang uses the target's: compare with --var engine=sglang, and re-export")
