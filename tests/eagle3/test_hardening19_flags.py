"""A converted draft whose config.json has the wrong norm_before_residual.

`speculators convert --algorithm eagle3` writes norm_before_residual=false unless given
`--algorithm-kwargs '{"norm_before_residual": true}'` (speculators src/speculators/__main__.py;
its regression test needs true for nm-testing/Speculator-Qwen3-8B-Eagle3:
tests/e2e/regression/test_eagle3_conversion_acceptance.py). vLLM honours the flag, so such a
draft is served wrong. Before: `drafter eval` showed a near-zero accuracy with no word why, and
`drafter layout` blamed the layout ("the draft was trained on a different layout than the one
configured"), sending the user to the aux layer ids. Now both name the flag and its value.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def trained_with_norm_before_residual(tmp_path_factory) -> Path:
    """speculators' draft with norm_before_residual=true, targets its step-0 state often hits."""
    return save_informative_world(tmp_path_factory.mktemp("hardening19_flags"), seed=7,
                                  draft_flags={"norm_before_residual": True})


def _converted_without_the_flag(world: Path, tmp_path: Path) -> Path:
    root = tmp_path / "w"
    shutil.copytree(world, root)
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    assert config["norm_before_residual"] is True
    config["norm_before_residual"] = False  # what the converter writes without the kwarg
    config_path.write_text(json.dumps(config, indent=2))
    return root


def test_layout_probe_names_the_flag_not_the_layout(trained_with_norm_before_residual, tmp_path):
    root = _converted_without_the_flag(trained_with_norm_before_residual, tmp_path)
    report = probe_layout(root / "draft", root / "data", root / "target")
    check = report["norm_before_residual_check"]
    assert check["config"] is False and check["ranked_with"] is True
    assert check["flipped_accuracy0"] > 0.3 > check["accuracy0"]
    # ranked with the value the weights fit, the configured layout is the draft's again
    assert report["best"] == report["configured"]
    assert "norm_before_residual=false does not fit these weights" in report["verdict"]
    assert "set it to true" in report["verdict"]
    assert "trained on a different layout" not in report["verdict"]


def test_eval_says_why_the_accuracy_is_near_zero(trained_with_norm_before_residual, tmp_path):
    root = _converted_without_the_flag(trained_with_norm_before_residual, tmp_path)
    result = evaluate_drafter(root / "draft", root / "data", root / "target")
    assert result["full_accuracy"][0] < 0.3  # run as config.json says, as vLLM would
    flagged = [n for n in result["notes"] if "norm_before_residual=false does not fit" in n]
    assert len(flagged) == 1 and "set it to true" in flagged[0]


def test_a_draft_whose_flag_is_right_gets_no_flag_note(trained_with_norm_before_residual):
    root = trained_with_norm_before_residual
    result = evaluate_drafter(root / "draft", root / "data", root / "target")
    assert result["full_accuracy"][0] > 0.3
    assert not [n for n in result["notes"] if "norm_before_residual" in n]
    report = probe_layout(root / "draft", root / "data", root / "target")
    assert report["norm_before_residual_check"]["ranked_with"] is True
    assert report["verdict"].startswith("configured layout")
