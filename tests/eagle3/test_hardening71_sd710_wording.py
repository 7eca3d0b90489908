"""The configs step's SD710 for a draft weight file safetensors refuses said "the header of
model.safetensors cannot be read (a copy or download cut short, a git-lfs pointer, or not a
safetensors file)" whatever the file was: for a speculators 0.9.0 draft with 16 bytes appended
(a copy written over a longer file) it named two things it was not, and for a header entry
edited by hand none of what it was. The probes' listing read the header and knew why; now it
sends that (unreadable_weight_reasons) and the finding says it. A file whose header cannot be
read at all (a git-lfs pointer, an empty file) keeps the general words
(test_hardening70_unreadable_weights_error)."""

from __future__ import annotations

import json
import os
import shutil
import struct

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

ENGINES = ("vLLM and SGLang open every weight file with safetensors' safe_open and do not start "
           "(\"Error while deserializing header\"); the draft config's shape keys and norm flags "
           "were not compared with its weights")


def _copy(tmp_path, world):
    root = tmp_path / "copy"
    shutil.copytree(world, root)
    return root, root / "draft" / "model.safetensors"


def _sd710(root):
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD710"]
    assert finding.severity == "error"
    return finding


def test_a_file_longer_than_its_header_says_is_said_so(tmp_path, world):
    root, weights = _copy(tmp_path, world)
    data = weights.read_bytes()
    weights.write_bytes(data + b"\0" * 16)
    assert _sd710(root).evidence == [
        f"model.safetensors: 16 byte(s) past the tensors its header describes ({len(data) + 16} "
        f"bytes, the header describes {len(data)}), which safetensors refuses: a copy written over "
        f"a longer file, or appended to: {ENGINES}"]


def test_a_file_cut_short_is_said_so(tmp_path, world):
    root, weights = _copy(tmp_path, world)
    data = weights.read_bytes()
    weights.write_bytes(data[:-100])
    assert _sd710(root).evidence == [
        f"model.safetensors: truncated ({len(data) - 100} bytes, its header describes {len(data)}: "
        f"a copy or download cut short): {ENGINES}"]


def test_a_header_entry_safetensors_refuses_is_named(tmp_path, world):
    root, weights = _copy(tmp_path, world)
    data = weights.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    header["fc.weight"]["dtype"] = "Q4"
    text = json.dumps(header).encode()
    weights.write_bytes(struct.pack("<Q", len(text)) + text + data[8 + length:])
    assert _sd710(root).evidence == [
        "model.safetensors: safetensors header entry 'fc.weight' has dtype 'Q4', which safetensors "
        "does not know; safetensors refuses the whole file over it (a header edited by hand or "
        f"written by another writer): {ENGINES}"]
