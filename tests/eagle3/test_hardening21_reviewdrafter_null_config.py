"""A draft config with a null rms_norm_eps or rope_theta (hand-edited or converted configs
write null where HF writes numbers) was read as the default epsilon / RoPE base, so the draft
was scored with another norm or rotation than it was trained with and no word was said.
transformers 5 refuses such a config (LlamaConfig validates rms_norm_eps as a float; a null
rope_theta fails in the rotary embedding), so speculators and vLLM cannot load the draft
either: one clear error line, naming the key."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("h21_review_null_config"), seed=3)


def _null(root: Path, key: str) -> None:
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    decoder = config["transformer_layer_config"]
    decoder[key] = None
    if isinstance(decoder.get("rope_parameters"), dict) and key in decoder["rope_parameters"]:
        decoder["rope_parameters"][key] = None
    path.write_text(json.dumps(config))


@pytest.mark.parametrize("key", ["rms_norm_eps", "rope_theta"])
def test_a_null_norm_epsilon_or_rope_base_is_one_clear_error(base, tmp_path, key):
    root = tmp_path / "case"
    shutil.copytree(base, root)
    _null(root, key)
    for command in (["eval", "--data", str(root / "data"), "--steps", "2"], ["vocab"]):
        result = runner.invoke(drafter_app, [*command, "--model", str(root / "draft"),
                                             "--target", str(root / "target")])
        assert result.exit_code == 2, result.output
        assert f"'{key}' is null" in result.output
        assert "trained with" in result.output and "Traceback" not in result.output


def test_an_absent_key_keeps_its_default(base, tmp_path):
    """Only null is refused: a config without the key gets the class default, as transformers
    gives it."""
    root = tmp_path / "case"
    shutil.copytree(base, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"].pop("rms_norm_eps", None)
    path.write_text(json.dumps(config))
    result = runner.invoke(drafter_app, ["vocab", "--model", str(root / "draft"), "--target",
                                         str(root / "target")])
    assert result.exit_code == 0, result.output
