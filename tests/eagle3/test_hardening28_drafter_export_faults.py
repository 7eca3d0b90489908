"""speculators drafts saved, then damaged as exports damage them, each compared with what
speculators 0.9.0 does with the same files:

- fc.weight cast to float8 (no scale, no quantization_config) beside bf16/fp32 weights:
  speculators loads it cast back up, as vLLM's loader does; eval scored the cast draft
  (step 0: 0.667, 0.690 as trained) with no word. Now a note says which weights were cast.
- norm.weight dropped: speculators starts it fresh with a load-report line, vLLM refuses the
  draft; eval refused it as "missing tensors: norm.weight" with no fix. Now with the fix.
- a safetensors __metadata__ value that is not a string ({"step": 12}): safetensors, and so
  speculators, refuses the file; eval said "cannot read embed_tokens.weight (Error while
  deserializing header: ...)". Now one line naming the key and the fix.
Probed and left as they were: extra string metadata (both load it), an index naming a
missing shard (both refuse it; spec-debug names the shard: test_hardening18_checkpoints), a
head tied to the embedding and not saved (spec-debug refuses it with the fix, speculators
starts lm_head at random)."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from spec_debug.eagle3.checkpoint import CheckpointError  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("export_faults"), seed=1)


def _draft(world: Path, out: Path, edit) -> Path:
    shutil.copytree(world / "draft", out)
    tensors = load_file(str(out / "model.safetensors"))
    edit(tensors)
    save_file(tensors, str(out / "model.safetensors"), metadata={"format": "pt"})
    return out


def test_a_weight_cast_to_fp8_is_scored_as_loaded_and_named(world, tmp_path):
    def cast(tensors):
        tensors["fc.weight"] = tensors["fc.weight"].to(torch.float8_e4m3fn)
        tensors["layers.0.mlp.down_proj.weight"] = tensors["layers.0.mlp.down_proj.weight"].to(
            torch.bfloat16)

    result = evaluate_drafter(_draft(world, tmp_path / "fp8", cast), world / "data",
                              world / "target")
    assert result["full_accuracy"][0] == pytest.approx(0.6667, abs=1e-4)  # 0.6905 uncast
    assert ("fc.weight stored in float8 (F8_E4M3) with no scale and no quantization_config, "
            "beside BF16/F32 weights: cast in the export, and every loader (speculators, vLLM) "
            "casts it back up as stored, so the draft scored and served is the cast one, not "
            "the one trained; export the weights in the training dtype") in result["notes"]


def test_a_dropped_norm_weight_is_refused_with_the_fix(world, tmp_path):
    draft = _draft(world, tmp_path / "no_norm", lambda tensors: tensors.pop("norm.weight"))
    with pytest.raises(CheckpointError) as refused:
        evaluate_drafter(draft, world / "data", world / "target")
    assert refused.value.message == f"{draft}: missing tensors: norm.weight"
    assert refused.value.hint == (
        "the checkpoint lacks these weights: vLLM refuses such a draft (weights not initialized "
        "from checkpoint) and speculators' from_pretrained starts them fresh (a norm at 1.0); "
        "save the trained draft again with every weight (save_pretrained)")


def test_a_metadata_value_that_is_not_a_string_is_one_line(world, tmp_path):
    draft = tmp_path / "metadata"
    shutil.copytree(world / "draft", draft)
    weights = draft / "model.safetensors"
    data = weights.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    header["__metadata__"] = {"format": "pt", "step": 12}  # as a hand edit writes it
    raw = json.dumps(header).encode()
    raw += b" " * (-len(raw) % 8)
    weights.write_bytes(struct.pack("<Q", len(raw)) + raw + data[8 + length:])
    from speculators.models.eagle3 import Eagle3DraftModel

    with pytest.raises(Exception, match="expected a string"):  # safetensors' own refusal
        Eagle3DraftModel.from_pretrained(str(draft))
    with pytest.raises(CheckpointError) as refused:
        evaluate_drafter(draft, world / "data", world / "target")
    assert refused.value.message == (
        f"{weights}: the safetensors header's __metadata__ holds 'step': 12, not a string: "
        "safetensors refuses the file, so no loader (speculators, vLLM, SGLang) reads it")
    assert refused.value.hint == ("write the value as a string ('step': \"12\"), or save the "
                                  "tensors again with save_file(tensors, path, metadata={...})")
