"""A draft config whose rope_theta or RoPE scaling factor is zero or negative (a hand-edited or
converted config: `"rope_theta": 0` for "use the default", a factor zeroed by a script).

transformers builds the rotary from it as written (modeling_rope_utils.py: `1.0 / base ** ...`,
`inv_freq /= factor`), so speculators' own forward gives NaN logits and no engine can serve the
draft. Before: a zero rope_theta or yarn factor was read as absent (10000, or the
max_position_embeddings ratio) and the eval scored 0.69, a draft that cannot run; a negative
rope_theta or a zero linear factor scored 0.000 with no word, like a draft trained on nothing.
Now each is one line naming the key and its value. Saved by speculators 0.9.0."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from tests.conftest import run_cli  # noqa: E402
from tests.eagle3.speculators_world import (AUX, H, V, reference_logits,  # noqa: E402
                                            save_informative_world)

EDITS = {
    "rope_theta 0": ({"rope_type": "default", "rope_theta": 0}, "'rope_theta' is 0"),
    "rope_theta -1": ({"rope_type": "default", "rope_theta": -1.0}, "'rope_theta' is -1"),
    "linear factor 0": ({"rope_type": "linear", "rope_theta": 10000.0, "factor": 0},
                        "'factor' is 0"),
    "yarn factor 0": ({"rope_type": "yarn", "rope_theta": 10000.0, "factor": 0.0,
                       "original_max_position_embeddings": 32}, "'factor' is 0"),
}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("hardening51_rope"), seed=51)


def _edited(world, tmp_path, rope: dict):
    import shutil

    root = tmp_path / "w"
    shutil.copytree(world, root)
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["transformer_layer_config"]["rope_parameters"] = rope
    config["speculators_config"]["verifier"]["name_or_path"] = str(root / "target")
    config_path.write_text(json.dumps(config))
    return root


def _speculators_logits(root):
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(str(root / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel.from_pretrained(str(root / "draft"), config=config).eval()
    generator = torch.Generator().manual_seed(0)
    aux = torch.randn(1, 12, len(AUX) * H, generator=generator)
    ids = torch.randint(0, V, (1, 12), generator=generator)
    return reference_logits(model, aux, ids, 1)[0]


@pytest.mark.parametrize("edit", EDITS)
def test_a_rope_base_or_factor_at_or_below_zero_is_one_line_naming_it(world, tmp_path, edit):
    rope, said = EDITS[edit]
    root = _edited(world, tmp_path, rope)
    # the reference cannot run this draft: its rotary angles are Inf/NaN
    assert not torch.isfinite(_speculators_logits(root)).all()
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data",
                     str(root / "data"), "--steps", "2", "--json")
    assert result.code == 2, result.stdout[-400:]
    line = " ".join(result.stderr.split())
    assert f"config.json: {said}, expected a positive number" in line
    assert "unexpected" not in line and "Traceback" not in result.stderr


def test_a_positive_base_and_factor_still_evaluate(world, tmp_path):
    root = _edited(world, tmp_path, {"rope_type": "linear", "rope_theta": 10000.0, "factor": 1.0})
    result = run_cli("drafter", "eval", "--model", str(root / "draft"), "--data",
                     str(root / "data"), "--steps", "2", "--json")
    assert result.code == 0, result.stderr
    assert json.loads(result.stdout)["full_accuracy"][0] > 0.5
