"""Drafter checkpoints as hand edits and exporters leave them, checked against speculators 0.9.0
itself: the world is saved by the reference library (tests/eagle3/speculators_world.py), its
hidden states captured from the verifier as vLLM captures them, and each test runs the
`spec-debug drafter` command a user would type.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner

from spec_debug.diagnose.checks.draft_config import check_norm_flags
from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.speculators_world import save_informative_world

runner = CliRunner()


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/, draft/ (norm_before_residual false, as speculators' Eagle3SpeculatorConfig
    defaults) and data/ with targets the draft often hits, so a wrong norm shows."""
    return save_informative_world(tmp_path_factory.mktemp("hardening10"), seed=10)


def _copy(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "world"
    shutil.copytree(world, root)
    return root


def _edit_config(root: Path, **changes) -> dict:
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config.update(changes)
    path.write_text(json.dumps(config, indent=2))
    return config


def _run(*args: str):
    result = runner.invoke(drafter_app, [*args, "--json"])
    assert "Traceback" not in result.output, result.output
    return result


def _eval(root: Path, *extra: str) -> dict:
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"), "--steps", "2", *extra)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _accuracies(report: dict) -> list:
    return report["full_accuracy"] + report["target_acceptance"]


def test_a_hand_edited_false_string_is_false_as_speculators_reads_it(world, tmp_path):
    from speculators.models.eagle3 import Eagle3SpeculatorConfig

    pristine = _eval(world)
    root = _copy(world, tmp_path)
    config = _edit_config(root, norm_before_residual="false")
    # the reference library's own reading: pydantic's lax bool
    assert Eagle3SpeculatorConfig.from_pretrained(str(root / "draft")).norm_before_residual is False
    # before: bool("false") is True, and the reference forward ran the wrong residual
    report = _eval(root)
    assert _accuracies(report) == _accuracies(pristine)
    # vLLM keeps the string on its HF config and tests its truthiness: it runs the flag on
    vllm = _eval(root, "--semantics", "vllm")
    assert vllm["ignored_norm_flags"] == ["norm_before_residual"]
    assert _accuracies(vllm) != _accuracies(pristine)
    [sd701] = check_norm_flags("vllm", None, config)
    assert sd701.code == "SD701"
    assert "norm_before_residual: checkpoint means False, vllm latest runs True" in sd701.evidence[0]


def test_a_flag_speculators_refuses_is_one_clear_error(world, tmp_path):
    root = _copy(world, tmp_path)
    _edit_config(root, norm_before_fc="flase")
    result = _run("eval", "--model", str(root / "draft"), "--data", str(root / "data"),
                  "--target", str(root / "target"))
    assert result.exit_code == 2
    assert "'norm_before_fc' is 'flase', expected true or false" in result.output


def test_json_booleans_are_unchanged(world, tmp_path):
    # the flag true on weights trained with it false: the reference runs what the config says
    pristine = _eval(world)
    root = _copy(world, tmp_path)
    _edit_config(root, norm_before_residual=True)
    assert _accuracies(_eval(root)) != _accuracies(pristine)
    _edit_config(root, norm_before_residual="no")
    assert _accuracies(_eval(root)) == _accuracies(pristine)
