"""Square attention masks a hand-written dumper saves beside speculators' hidden states,
in two forms the drafter misread:

- Llama 4's chunked attention mask (transformers masking_utils.create_chunked_causal_mask:
  causal within chunks of attention_chunk_size positions) was refused as "a block mask of
  several documents packed in one row"; for a target whose config says that chunk size it
  is the target's own pattern, so it marks no padding, and pad rows at either end are cut
  as for a [T] mask. The same mask for a target without chunked attention, and packed
  documents of other lengths, stay refused.
- An all-zeros float [T, T] mask was read as 0/1 "everything masked" ("keeps 0 of T
  positions: nothing to score"). Every float mask torch and transformers apply is additive
  (transformers' eager bidirectional / expanded padding mask without padding is all zeros),
  so it reads as nothing masked.

The masks are built by transformers itself; the draft and states by speculators 0.9.0
(speculators_world)."""

from __future__ import annotations

import json
import os
import shutil
import warnings
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world, padded_sample  # noqa: E402

runner = CliRunner()
PAD = 3
CHUNK = 4


world = informative_world("h24_masks", seed=5)


def _chunked_mask(flat: torch.Tensor, implementation: str) -> torch.Tensor:
    """transformers' own Llama 4 chunked causal mask for a [T] padding mask."""
    from transformers import Llama4TextConfig
    from transformers.masking_utils import create_chunked_causal_mask

    config = Llama4TextConfig(hidden_size=16, attention_chunk_size=CHUNK, num_hidden_layers=1,
                              num_attention_heads=2, num_key_value_heads=1, head_dim=8,
                              intermediate_size=32, intermediate_size_mlp=32, vocab_size=64)
    config._attn_implementation = implementation
    T = flat.shape[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return create_chunked_causal_mask(config, torch.zeros(1, T, 16), flat[None], None,
                                          position_ids=torch.arange(T)[None])


def _bidirectional_mask(T: int) -> torch.Tensor:
    """transformers' eager expansion of an unpadded [T] mask: additive, all zeros."""
    from transformers.modeling_attn_mask_utils import _prepare_4d_attention_mask

    return _prepare_4d_attention_mask(torch.ones(1, T, dtype=torch.long), torch.float32)


def _dump(world: Path, out: Path, side: str, form: str) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        ids, states, flat = padded_sample(path, side, PAD)
        T = ids.shape[0]
        if form == "zeros":
            square = _bidirectional_mask(T)
        elif form == "packed":  # documents of 5, then 4s: not chunks of one size
            square = torch.ones(T, T, dtype=torch.bool).tril()
            square[5:, :5] = False
        else:
            square = _chunked_mask(flat, form)
        assert square is not None and square.shape[-1] == T
        save_file({"token_ids": ids, "hidden_states": states.contiguous(),
                   "attention_mask": square.contiguous()}, str(out / path.name))
    return out


@pytest.fixture(scope="module")
def chunked_target(world, tmp_path_factory) -> Path:
    """The world's target, its config saying Llama 4's attention_chunk_size."""
    out = tmp_path_factory.mktemp("h24_chunked_target") / "target"
    shutil.copytree(world / "target", out)
    config = json.loads((out / "config.json").read_text())
    (out / "config.json").write_text(json.dumps({**config, "attention_chunk_size": CHUNK}))
    return out


def _eval(world: Path, data: Path, target: Path | None = None) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(target or world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


@pytest.mark.parametrize("side,form", [("none", "eager"), ("right", "eager"),
                                       ("left", "eager"), ("none", "sdpa"),
                                       ("left", "sdpa"), ("none", "zeros")])
def test_a_chunked_or_all_zeros_mask_reads_as_no_padding(world, chunked_target, tmp_path,
                                                          side, form):
    plain = _eval(world, world / "data")
    masked = _eval(world, _dump(world, tmp_path / f"{side}_{form}", side, form),
                   chunked_target)
    assert masked["counts"] == plain["counts"]  # exactly the unpadded samples
    assert masked["full_accuracy"] == plain["full_accuracy"]
    notes = [n for n in masked["notes"] if "attention_mask" in n]
    if side == "none":
        assert notes == []
    else:
        assert notes and notes[0].startswith(f"3 of 3 samples carry an attention_mask "
                                             f"marking {3 * PAD} pad position(s)")


@pytest.mark.parametrize("form,target", [("packed", "chunked"), ("eager", "plain")])
def test_packed_documents_or_chunks_the_target_lacks_stay_refused(world, chunked_target,
                                                                   tmp_path, form, target):
    data = _dump(world, tmp_path / f"{form}_{target}", "none", form)
    target_dir = chunked_target if target == "chunked" else world / "target"
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(target_dir)])
    assert result.exit_code != 0
    assert "is not causal attention over the positions it keeps" in result.output
    if target == "plain":
        assert "within blocks of 4, and the target has no attention_chunk_size" in result.output
    assert "Traceback" not in result.output
