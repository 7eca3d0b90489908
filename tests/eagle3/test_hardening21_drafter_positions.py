"""A dump whose samples run past the draft's max_position_embeddings (a draft configured for
a short context, evaluated on long conversations) is scored as speculators 0.9.0 computes it,
its rotary embedding having no cap, and the evaluation says which samples are past it, so a
low accuracy on them is not read as a fault of the weights or of the capture."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import V, reference_logits, save_verifier_and_draft, vllm_style_states  # noqa: E402

MAX_POSITIONS = 128  # speculators_world's decoder config
runner = CliRunner()


@pytest.fixture(scope="module")
def base(tmp_path_factory) -> Path:
    """target/, draft/ (speculators' save, max_position_embeddings 128) and data/ with two
    short samples and one of 200 tokens, captured from the verifier as vLLM captures them."""
    root = tmp_path_factory.mktemp("h21_positions")
    verifier = save_verifier_and_draft(root)
    (root / "data").mkdir()
    generator = torch.Generator().manual_seed(21)
    for i, length in enumerate((14, 15, 200)):
        ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (length,), generator=generator))
        save_file({"token_ids": ids, "hidden_states": hidden}, str(root / "data" / f"hs_{i}.safetensors"))
    return root


def _eval(root: Path, data: Path) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data", str(data),
                                         "--target", str(root / "target"), "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_samples_past_the_drafts_max_positions_are_named(base):
    out = _eval(base, base / "data")
    past = [note for note in out["notes"] if "max_position_embeddings" in note]
    assert len(past) == 1, out["notes"]
    assert f"1 of 3 samples are longer than the draft's max_position_embeddings {MAX_POSITIONS}" in past[0]
    assert "the longest has 200 tokens" in past[0]
    assert out["samples"] == 3  # named, still scored


def test_samples_within_the_drafts_max_positions_get_no_note(base, tmp_path):
    short = tmp_path / "short"
    short.mkdir()
    for name in ("hs_0.safetensors", "hs_1.safetensors"):
        shutil.copy(base / "data" / name, short / name)
    out = _eval(base, short)
    assert not [note for note in out["notes"] if "max_position_embeddings" in note], out["notes"]


def test_rows_past_max_positions_match_speculators(base):
    """The rows past position 128 are scored with the logits speculators computes there."""
    from safetensors.torch import load_file
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(str(base / "draft"))
    config.transformer_layer_config._attn_implementation = "eager"
    reference = Eagle3DraftModel.from_pretrained(str(base / "draft"), config=config).eval()
    loaded = load_draft(base / "draft", base / "target")
    sample = load_file(str(base / "data" / "hs_2.safetensors"))
    T = sample["token_ids"].shape[0] - 1
    aux = sample["hidden_states"][:-1, :-1].float().reshape(1, T, -1)
    ids = sample["token_ids"][1:][None]
    expected = reference_logits(reference, aux, ids, 2)
    with torch.no_grad():
        got = loaded.model(aux, ids, 2)
    for a, b in zip(got, expected):
        assert (a[0, MAX_POSITIONS:] - b[0, MAX_POSITIONS:]).abs().max().item() < 1e-4
