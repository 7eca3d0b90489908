"""A draft model.safetensors whose header is whole but whose size is not what the header
says: a copy or download interrupted after the header (the last tensors' bytes missing), or a
copy written over a longer file (bytes past the last tensor). safetensors refuses both when
the file is opened (safetensors/src/tensor.rs read_metadata: the data must end exactly where
the last tensor's data_offsets do, else MetadataIncompleteBuffer, "Error while deserializing
header: incomplete metadata, file not fully covered"; recorded with safetensors 0.8.0's
safe_open below), so vLLM and SGLang, which open every weight file with safe_open, do not
start.

Before: the probes' listing read the header alone and found it fine, so the configs step
said nothing (the config compared with the weights, a clean line) and the eval and vocab
steps, whose drafter refused the file, fell back to an SD003 warning "could not run": the
run passed over a draft no engine loads. Now the listing compares the header's last data
offset with the file's size (no tensor data read) and the file is the configs step's SD710,
and the eval and vocab probes' refusal names it."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from spec_debug.probes.hostfiles import engine_weights_refusal, list_weights  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

ENGINES = ("vLLM and SGLang open every weight file with safetensors' safe_open and do not "
           "start (\"Error while deserializing header\")")


def _copy(tmp_path, world, name):
    root = tmp_path / name
    shutil.copytree(world, root)
    return root, root / "draft" / "model.safetensors"


def _safe_open_refuses(path) -> str | None:
    from safetensors import safe_open

    try:
        with safe_open(str(path), "pt") as handle:
            handle.keys()
    except Exception as exc:  # noqa: BLE001 - what the engines' loader says
        return str(exc)
    return None


def test_the_draft_as_saved_opens_and_is_clean(world):
    assert _safe_open_refuses(world / "draft" / "model.safetensors") is None
    assert list_weights(world / "draft").unreadable_weight_files == []
    assert "SD710" not in [f.code for f in _configs(world, VLLM)]
    assert engine_weights_refusal(world / "draft") is None


@pytest.mark.parametrize("how", ["cut", "cut_to_header", "extra"])
def test_a_file_of_another_size_than_its_header_says_is_sd710(tmp_path, world, how):
    root, weights = _copy(tmp_path, world, how)
    data = weights.read_bytes()
    header_end = 8 + int.from_bytes(data[:8], "little")
    changed = {"cut": data[:-100], "cut_to_header": data[:header_end], "extra": data + b"\0" * 16}[how]
    weights.write_bytes(changed)
    # the loader the engines use refuses it: only that is flagged
    assert _safe_open_refuses(weights) == (
        "Error while deserializing header: incomplete metadata, file not fully covered")
    assert list_weights(root / "draft").unreadable_weight_files == ["model.safetensors"]
    found = _configs(root, VLLM)
    assert [(f.code, f.severity) for f in found if f.code == "SD710"] == [("SD710", "error")]
    [finding] = [f for f in found if f.code == "SD710"]
    assert finding.facts["unreadable_weight_files"] == ["model.safetensors"]
    assert finding.title == "A draft weight file the engines load cannot be read"
    refused = engine_weights_refusal(root / "draft")
    assert refused["unreadable_weight_files"] == ["model.safetensors"]


def test_the_vocab_step_gives_sd710_with_the_drafters_words(tmp_path, world):
    root, weights = _copy(tmp_path, world, "vocab")
    data = weights.read_bytes()
    weights.write_bytes(data[:-100])
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    [finding] = vocab_step.check(context(vocab_step.parse(raw), {}))
    assert (finding.code, finding.severity) == ("SD710", "error")
    assert finding.facts["unreadable_weight_files"] == ["model.safetensors"]
    assert finding.evidence == [
        f"{weights}: truncated ({len(data) - 100} bytes, the header describes {len(data)}); copy "
        f"or download it again: {ENGINES}"]
