"""A sample keeping the square attention mask of a target whose attention is not plain causal.

4b52bbb read a saved [T, T] / [1, 1, T, T] mask back to the [T] mask it was built from, but only
when the kept positions attend plain causally; any other pattern was refused as "a block mask of
several documents packed in one row". A target's own pattern is no such fault: the target ran it,
and an engine serving that target runs it too. transformers builds two such masks for targets
EAGLE-3 drafts serve: a sliding window (Mistral, Gemma 2/3, gpt-oss layers:
masking_utils.sliding_window_causal_mask_function) and causal attention with a bidirectional span
(a prefix-LM prefix; Gemma 3's image tokens, an or_mask over token_type_ids). Each now reads as
no padding, pad rows at either end cut as for a [T] mask; packed documents stay refused, with or
without a window. The masks are built by transformers itself; the draft and states by
speculators 0.9.0 (speculators_world)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
masking_utils = pytest.importorskip("transformers.masking_utils")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3._world import informative_world  # noqa: E402

runner = CliRunner()
PAD = 3
WINDOW = 4  # under every sample's length (14-16 tokens): the window masks something


world = informative_world("h23_window_masks", seed=5)


def _pattern(name: str, real: torch.Tensor):
    """transformers' mask function for the target's attention over the real tokens (`real`:
    which positions hold them; a bidirectional span sits at the first real tokens + 2..5)."""
    if name == "window":
        return masking_utils.sliding_window_causal_mask_function(WINDOW)
    span = torch.zeros(real.shape[0], dtype=torch.bool)
    first = int(real.nonzero()[0])
    span[first + 2:first + 6] = True

    def image_tokens(_batch, _head, q, kv):  # Gemma 3: an image's tokens see each other
        return span[q] & span[kv]
    if name == "span":
        return masking_utils.or_masks(masking_utils.causal_mask_function, image_tokens)
    if name == "packed_window":  # two documents, each with its own window
        half = real.shape[0] // 2

        def same_document(_batch, _head, q, kv):
            return (q < half) == (kv < half)
        return masking_utils.and_masks(masking_utils.sliding_window_causal_mask_function(WINDOW),
                                       same_document)
    raise ValueError(name)


def _square(name: str, real: torch.Tensor, form: str) -> torch.Tensor:
    """The [1, 1, T, T] mask transformers' SDPA path builds (bool, True = attends), or its
    eager path's additive float one."""
    T = real.shape[0]
    build = masking_utils.sdpa_mask if form == "sdpa" else masking_utils.eager_mask
    kw = {"allow_is_causal_skip": False} if form == "sdpa" else {}
    return build(1, T, T, mask_function=_pattern(name, real), attention_mask=real[None], **kw)


def _dump(world: Path, out: Path, name: str, side: str, form: str) -> Path:
    out.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        pad_ids = torch.zeros(PAD, dtype=ids.dtype)
        pad_states = torch.zeros(PAD, *states.shape[1:], dtype=states.dtype)
        real = torch.ones(ids.shape[0], dtype=torch.bool)
        if side != "none":
            before = side == "left"
            ids = torch.cat([pad_ids, ids] if before else [ids, pad_ids])
            states = torch.cat([pad_states, states] if before else [states, pad_states])
            no = torch.zeros(PAD, dtype=torch.bool)
            real = torch.cat([no, real] if before else [real, no])
        save_file({"token_ids": ids, "hidden_states": states.contiguous(),
                   "attention_mask": _square(name, real, form).contiguous()},
                  str(out / path.name))
    return out


def _eval(world: Path, data: Path):
    return runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                       str(data), "--target", str(world / "target"),
                                       "--steps", "2", "--json"])


@pytest.mark.parametrize("name,side,form", [("window", "none", "sdpa"),
                                            ("window", "right", "eager"),
                                            ("window", "left", "sdpa"),
                                            ("span", "none", "eager"),
                                            ("span", "left", "eager"),
                                            ("span", "right", "sdpa")])
def test_the_targets_own_attention_pattern_marks_no_padding(world, tmp_path, name, side, form):
    plain = json.loads(_eval(world, world / "data").output)
    result = _eval(world, _dump(world, tmp_path / f"{name}_{side}_{form}", name, side, form))
    assert result.exit_code == 0, result.output
    masked = json.loads(result.output)
    assert masked["counts"] == plain["counts"]  # exactly the unpadded samples
    assert masked["full_accuracy"] == plain["full_accuracy"]
    notes = [n for n in masked["notes"] if "attention_mask" in n]
    if side == "none":
        assert notes == []
    else:
        assert notes and notes[0].startswith(f"3 of 3 samples carry an attention_mask "
                                             f"marking {3 * PAD} pad position(s)")


def test_packed_documents_with_a_window_stay_refused(world, tmp_path):
    result = _eval(world, _dump(world, tmp_path / "packed_window", "packed_window", "none",
                                "sdpa"))
    assert result.exit_code != 0
    assert "is not causal attention over the positions it keeps" in result.output
    assert "Traceback" not in result.output


def test_a_byte_mask_in_multiheadattentions_convention_reads_as_causal(world, tmp_path):
    """torch.nn.MultiheadAttention took uint8 attn_masks as boolean ones (True/1 = masked out):
    the causal triu(1) mask with the pad keys masked, saved as bytes, is the causal mask with
    right padding (was: refused as not causal; a bool one already read so)."""
    data = tmp_path / "byte_masked_out"
    data.mkdir()
    for path in sorted((world / "data").glob("*.safetensors")):
        tensors = load_file(str(path))
        ids, states = tensors["token_ids"], tensors["hidden_states"]
        ids = torch.cat([ids, torch.zeros(PAD, dtype=ids.dtype)])
        states = torch.cat([states, torch.zeros(PAD, *states.shape[1:], dtype=states.dtype)])
        T = ids.shape[0]
        masked_out = torch.ones(T, T, dtype=torch.bool).triu(1)
        masked_out[:, -PAD:] = True
        save_file({"token_ids": ids, "hidden_states": states.contiguous(),
                   "attention_mask": masked_out.to(torch.uint8).contiguous()},
                  str(data / path.name))
    plain = json.loads(_eval(world, world / "data").output)
    result = _eval(world, data)
    assert result.exit_code == 0, result.output
    masked = json.loads(result.output)
    assert masked["counts"] == plain["counts"]
    assert any(n.startswith(f"3 of 3 samples carry an attention_mask marking {3 * PAD} pad")
               for n in masked["notes"])
