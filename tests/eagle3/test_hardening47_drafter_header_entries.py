"""A speculators 0.9.0 draft whose model.safetensors header was edited so one entry no longer
fits its bytes: fc.weight relabelled F16 (its data is F32), a dtype safetensors does not know,
or norm.weight's data_offsets pointing into fc.weight's. safetensors refuses the whole file
over one such entry, so no engine can load the draft; eval said "cannot read
embed_tokens.weight (Error while deserializing header: ...)" and vocab "cannot read d2t",
naming a tensor that is fine. Both now name the entry that is wrong and what is wrong in it."""

from __future__ import annotations

import json
import shutil
import struct
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

REFUSED = ("safetensors refuses the whole file over it, so speculators, vLLM and SGLang cannot "
           "load any tensor of it: a header edited by hand or written by another writer; copy "
           "or download the file again, or save it again")


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("header_entries"), seed=1)


def _edited(world: Path, tmp_path: Path, edit) -> Path:
    """The draft with its header edited in place, padded to the same length (the data stays)."""
    draft = tmp_path / "draft"
    shutil.copytree(world / "draft", draft)
    path = draft / "model.safetensors"
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    edit(header)
    text = json.dumps(header, separators=(",", ":")).encode()
    assert len(text) <= length
    path.write_bytes(data[:8] + text + b" " * (length - len(text)) + data[8 + length:])
    return draft


def _relabel(header):
    header["fc.weight"]["dtype"] = "F16"


def _unknown(header):
    header["fc.weight"]["dtype"] = "Q4"


def _overlap(header):
    header["norm.weight"]["data_offsets"] = header["fc.weight"]["data_offsets"]


def _refusal(draft: Path, world: Path, read) -> str:
    with pytest.raises(CheckpointError) as raised:
        read(draft, world)
    return raised.value.message


READS = [lambda draft, world: evaluate_drafter(draft, world / "data", world / "target"),
         lambda draft, world: check_drafter_vocab(draft, world / "target")]


@pytest.mark.parametrize("read", READS, ids=["eval", "vocab"])
def test_a_dtype_relabelled_in_the_header_is_named(world, tmp_path, read):
    draft = _edited(world, tmp_path, _relabel)
    assert _refusal(draft, world, read) == (
        f"{draft / 'model.safetensors'}: safetensors header entry 'fc.weight' says F16 [32, 96] "
        f"(6144 bytes), its data_offsets span 12288 bytes; {REFUSED}")


@pytest.mark.parametrize("read", READS, ids=["eval", "vocab"])
def test_an_unknown_dtype_is_named(world, tmp_path, read):
    draft = _edited(world, tmp_path, _unknown)
    assert _refusal(draft, world, read) == (
        f"{draft / 'model.safetensors'}: safetensors header entry 'fc.weight' has dtype 'Q4', "
        f"which safetensors does not know; {REFUSED}")


def test_overlapping_offsets_are_named(world, tmp_path):
    draft = _edited(world, tmp_path, _overlap)
    message = _refusal(draft, world, READS[0])
    assert message.startswith(f"{draft / 'model.safetensors'}: safetensors header entry "
                              "'norm.weight' starts at data byte ")
    assert message.endswith(REFUSED)


def test_the_header_as_saved_passes(world):
    assert check_drafter_vocab(world / "draft", world / "target")["ok"]
