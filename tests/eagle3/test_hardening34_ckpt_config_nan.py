"""A config.json with NaN or Infinity where a number belongs: Python's json (and so
transformers) reads them, and json.dumps writes them for a computed float. Before: a draft whose
rms_norm_eps was NaN scored an expected accept length of 1.000 (every logit NaN), with no error;
now the key is named."""

from __future__ import annotations

import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.test_hardening34_ckpt_draft_head import world  # noqa: E402,F401


@pytest.mark.parametrize(("written", "key", "shown"), [
    ('"rms_norm_eps": 1e-06', "rms_norm_eps", "NaN"),
    ('"rope_theta": 10000.0', "rope_theta", "Infinity"),
])
def test_a_draft_config_with_a_non_finite_number_is_refused(world, tmp_path, written, key, shown):
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    text = (draft / "config.json").read_text()
    assert written in text
    (draft / "config.json").write_text(text.replace(written, f'"{key}": {shown}'))
    result = CliRunner().invoke(drafter_app, ["eval", "--model", str(draft), "--data",
                                              str(world / "data"), "--target", str(world / "target")])
    assert result.exit_code == 2
    assert f"config.json: '{key}' is {shown}, expected a finite number" in result.output


def test_a_target_config_with_a_nan_norm_epsilon_is_refused(world, tmp_path):
    target = tmp_path / "target"
    shutil.copytree(world / "target", target)
    text = (target / "config.json").read_text()
    (target / "config.json").write_text(text.replace('"rms_norm_eps": 1e-06', '"rms_norm_eps": NaN'))
    result = CliRunner().invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                              str(world / "data"), "--target", str(target)])
    assert result.exit_code == 2
    assert "'rms_norm_eps' is NaN, expected a finite number" in result.output
