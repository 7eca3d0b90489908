"""Checkpoints are read lazily and under either naming; dumps stream only the slots asked for."""

from __future__ import annotations

import json

import pytest

torch = pytest.importorskip("torch")

from spec_debug.eagle3 import checkpoint as ckpt  # noqa: E402
from spec_debug.eagle3.api import check_drafter_vocab  # noqa: E402
from spec_debug.eagle3.data import DataError, describe_data, iter_samples, write_hs_sample  # noqa: E402
from spec_debug.eagle3.synthetic import (  # noqa: E402
    make_draft_config, save_speculators_draft, tiny_config, vocab_map,
)
from spec_debug.eagle3.model import Eagle3Draft  # noqa: E402


@pytest.fixture
def small_draft(tmp_path):
    draft = Eagle3Draft(make_draft_config(tiny_config(vocab=128, hidden=32, layers=8),
                                          (2, 4, 5), 64))
    draft.d2t, draft.t2d = vocab_map(torch.arange(128), 64)
    save_speculators_draft(draft, tmp_path / "draft", verifier="x", verifier_layers=8)
    return tmp_path / "draft"


def test_config_and_vocab_maps_without_reading_other_tensors(small_draft, monkeypatch):
    read = []
    original = ckpt.TensorStore.get
    monkeypatch.setattr(ckpt.TensorStore, "get",
                        lambda self, name: read.append(name) or original(self, name))
    checkpoint = ckpt.open_draft(small_draft)
    assert checkpoint.config.aux_layer_ids == (2, 4, 5)
    assert checkpoint.shape("fc.weight") == (32, 96)  # from the header
    report = check_drafter_vocab(small_draft)
    assert report["ok"]
    assert sorted(read) == ["d2t", "t2d"]


def test_sharded_and_midlayer_names(small_draft, tmp_path):
    from safetensors.torch import load_file, save_file

    state = load_file(small_draft / "model.safetensors")
    out = tmp_path / "sharded"
    out.mkdir()
    names = sorted(state)
    half = len(names) // 2
    weight_map = {}
    for shard, chunk in (("a.safetensors", names[:half]), ("b.safetensors", names[half:])):
        save_file({("model." + n.replace("layers.0.", "midlayer.")): state[n] for n in chunk},
                  out / shard)
        weight_map.update({"model." + n.replace("layers.0.", "midlayer."): shard for n in chunk})
    (out / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    (out / "config.json").write_text((small_draft / "config.json").read_text())
    checkpoint = ckpt.open_draft(out)
    assert checkpoint.has("layers.0.self_attn.q_proj.weight")
    assert torch.equal(checkpoint.get("layers.0.hidden_norm.weight"),
                       state["layers.0.hidden_norm.weight"])


def test_not_a_checkpoint_is_a_clear_error(tmp_path):
    (tmp_path / "config.json").write_text("{not json")
    with pytest.raises(ckpt.CheckpointError, match="not valid JSON"):
        ckpt.open_draft(tmp_path)
    with pytest.raises(ckpt.CheckpointError, match="not found"):
        ckpt.open_draft(tmp_path / "missing")


def test_streaming_reads_only_the_requested_slots(tmp_path):
    for i in range(3):
        hidden = torch.arange(10 * 5 * 4, dtype=torch.float32).reshape(10, 5, 4) + 1000 * i
        write_hs_sample(tmp_path / f"hs_{i}.safetensors", torch.arange(10), hidden,
                        layer_ids=[0, 2, 4, 5, 8])
    info = describe_data(tmp_path)
    assert (info.format, info.files, info.num_slots, info.layer_ids) == (
        "speculators", 3, 5, (0, 2, 4, 5, 8))
    samples = list(iter_samples(tmp_path, slots=(3, 1), max_samples=2))
    assert len(samples) == 2
    s = samples[1]
    assert s.slots.shape == (10, 2, 4) and s.slot_index == (3, 1)
    full = torch.arange(10 * 5 * 4, dtype=torch.float32).reshape(10, 5, 4) + 1000
    assert torch.equal(s.slots, full[:, [3, 1]]) and torch.equal(s.final, full[:, 4])
    assert s.loss_mask.all()


def test_bad_dumps_are_clear_errors(tmp_path):
    write_hs_sample(tmp_path / "hs_0.safetensors", torch.arange(4), torch.zeros(4, 3, 2),
                    layer_ids=[1, 2])
    with pytest.raises(DataError, match="layer_ids metadata names 2 slots"):
        list(iter_samples(tmp_path))
    (tmp_path / "empty").mkdir()
    with pytest.raises(DataError, match="no hs_"):
        describe_data(tmp_path / "empty")
