"""The comparison of a draft's two copies of its weights (model.safetensors beside a
pytorch_model.bin / model.pt, or beside the shards an index names): measured on a 1.9 GB
Llama-3-8B-sized draft (bf16, 128256 x 4096 embedding) beside its identical
pytorch_model.bin, `drafter vocab` spent 5 s of its 12 s in torch.equal over uint8 views, and
a copy cast to another dtype (the pickle saved in float32) differed only after every smaller
tensor was read whole.

Now shapes and dtypes are compared first, from the headers and the pickle's tensor records,
with no value read, and values are compared as the widest integers their byte length allows
(torch.equal over 1 GB in memory: 0.89 s as int64, 3.2 s as uint8; the 1.9 GB pair's whole
comparison went from 9.7-12.3 s to 4.5-5.9 s on a loaded 2-core machine), still bit for bit: a NaN equals the same NaN, -0.0 is not 0.0, a one-bit change anywhere is found. The draft
is saved by speculators 0.9.0."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3 import checkpoint  # noqa: E402
from spec_debug.eagle3.checkpoint import TensorStore, normalise_draft_name  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import world  # noqa: E402,F401


@pytest.fixture
def draft(tmp_path, world):
    shutil.copytree(world / "draft", tmp_path / "draft")
    return tmp_path / "draft"


def _state(draft) -> dict:
    return {name: t.clone() for name, t in load_file(str(draft / "model.safetensors")).items()}


def _difference(draft) -> str | None:
    store = TensorStore.open(draft, normalise_draft_name)
    return checkpoint._pickle_difference(store, [draft / "pytorch_model.bin"])


def _values_never_read(monkeypatch) -> None:
    def refuse(*_):
        raise AssertionError("values were read")
    monkeypatch.setattr(checkpoint, "_same_values", refuse)


def test_a_copy_cast_to_another_dtype_differs_without_reading_values(draft, monkeypatch):
    state = _state(draft)
    largest = max(state, key=lambda name: state[name].numel())
    state[largest] = state[largest].to(torch.float64)
    torch.save(state, draft / "pytorch_model.bin")
    _values_never_read(monkeypatch)
    assert _difference(draft) == largest


def test_a_copy_of_another_shape_differs_without_reading_values(draft, monkeypatch):
    state = _state(draft)
    state["fc.weight"] = state["fc.weight"][:, :-1].clone()
    torch.save(state, draft / "pytorch_model.bin")
    _values_never_read(monkeypatch)
    assert _difference(draft) == "fc.weight"


def test_shards_beside_a_single_file_of_another_dtype_differ_from_the_headers(draft, monkeypatch):
    state = _state(draft)
    (draft / "model.safetensors").unlink()
    names = sorted(state)
    save_file({n: state[n] for n in names[:3]}, str(draft / "model-00001-of-00002.safetensors"),
              metadata={"format": "pt"})
    save_file({n: state[n] for n in names[3:]}, str(draft / "model-00002-of-00002.safetensors"),
              metadata={"format": "pt"})
    import json
    (draft / "model.safetensors.index.json").write_text(json.dumps({"metadata": {}, "weight_map": {
        n: ("model-00001-of-00002.safetensors" if i < 3 else "model-00002-of-00002.safetensors")
        for i, n in enumerate(names)}}))
    whole = dict(state)
    whole["embed_tokens.weight"] = whole["embed_tokens.weight"].to(torch.float16)
    save_file(whole, str(draft / "model.safetensors"), metadata={"format": "pt"})
    store = TensorStore.open(draft, normalise_draft_name)
    assert store.shadowed_single == draft / "model.safetensors"
    _values_never_read(monkeypatch)
    assert checkpoint._first_difference(store, draft / "model.safetensors") == "embed_tokens.weight"


@pytest.mark.parametrize("shape", [(7, 3), (8, 4), (5,), (1, 2, 3)])
@pytest.mark.parametrize("dtype", [torch.bfloat16, torch.float32, torch.int64, torch.bool])
def test_the_wide_compare_is_bit_exact(shape, dtype):
    base = (torch.randn(shape) * 3).to(dtype) if dtype != torch.bool else torch.rand(shape) > 0.5
    assert checkpoint._same_bits(base, base.clone())
    # one bit flipped in the last byte, where a wide view's tail would be
    changed = base.clone().reshape(-1)
    if dtype == torch.bool:
        changed[-1] = ~changed[-1]
    else:
        changed.view(torch.uint8)[-1] ^= 1
    assert not checkpoint._same_bits(base, changed.reshape(shape))


def test_nan_and_signed_zero_are_compared_by_bits():
    nan = torch.tensor([float("nan"), 0.0, 1.0, 2.0], dtype=torch.float32)
    assert checkpoint._same_bits(nan, nan.clone())
    assert not checkpoint._same_bits(torch.tensor([0.0] * 4), torch.tensor([-0.0] + [0.0] * 3))


def test_a_chunk_at_an_odd_offset_falls_back_to_bytes():
    # a row slice of a mapped bf16 tensor whose byte offset is no multiple of 8
    whole = torch.arange(3 * 5, dtype=torch.float32).to(torch.bfloat16).reshape(3, 5)
    a, b = whole[1:], whole.clone()[1:]
    assert a.storage_offset() * 2 % 8 != 0
    assert checkpoint._same_bits(a, b)
    c = b.clone()
    c[-1, -1] = 99
    assert not checkpoint._same_bits(a, c)
