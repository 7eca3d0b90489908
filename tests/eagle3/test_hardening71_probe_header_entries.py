"""A speculators 0.9.0 draft whose model.safetensors header was edited so safetensors' safe_open
(which vLLM and SGLang load every weight file with) refuses the whole file: an entry whose
dtype x shape size is not its data_offsets span, a dtype safetensors does not know, spans that
overlap, or a shape / offset that is not a JSON whole number (8.0, "8", false).

Before: the probes' listing read the header's shapes as they were and found the file fine, so
the configs step compared the config with weights no engine can load and gave no SD710; the
drafter took a float or string shape and a false offset (int() of them) and read on, and took a
float offset as bytes past the tensors. Now the listing and the drafter ask one rule
(hostfiles.header_problem): the file is the configs step's SD710, and the drafter names the
entry that is wrong. Each case's refusal was recorded with safetensors 0.8.0's safe_open below."""

from __future__ import annotations

import json
import os
import shutil
import struct

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.checkpoint import read_safetensors_header  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.probes.hostfiles import list_weights  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401


def _safe_open_refuses(path) -> str | None:
    from safetensors import safe_open

    try:
        with safe_open(str(path), "pt") as handle:
            handle.keys()
    except Exception as exc:  # noqa: BLE001 - what the engines' loader says
        return str(exc)
    return None


def _first(header) -> str:
    """The tensor whose data starts at byte 0."""
    return next(name for name, info in header.items()
                if name != "__metadata__" and info["data_offsets"][0] == 0)


def _relabel(header):
    name = _first(header)
    header[name]["dtype"] = "F16" if header[name]["dtype"] != "F16" else "F32"
    return name


def _unknown(header):
    name = _first(header)
    header[name]["dtype"] = "Q4"
    return name


def _overlap(header):
    first = _first(header)
    second = next(name for name, info in header.items() if name != "__metadata__"
                  and info["data_offsets"][0] == header[first]["data_offsets"][1])
    header[second]["data_offsets"] = [header[first]["data_offsets"][1] - 2, header[second]["data_offsets"][1] - 2]
    return second


def _float_shape(header):
    name = _first(header)
    header[name]["shape"] = [float(n) for n in header[name]["shape"]]
    return name


def _string_shape(header):
    name = _first(header)
    header[name]["shape"] = [str(n) for n in header[name]["shape"]]
    return name


def _false_offset(header):
    name = _first(header)
    header[name]["data_offsets"][0] = False
    return name


def _float_offset(header):
    name = _first(header)
    header[name]["data_offsets"] = [0, float(header[name]["data_offsets"][1])]
    return name


EDITS = {"relabelled": _relabel, "unknown_dtype": _unknown, "overlap": _overlap,
         "float_shape": _float_shape, "string_shape": _string_shape, "false_offset": _false_offset,
         "float_offset": _float_offset}
WHAT = {"relabelled": "says", "unknown_dtype": "has dtype 'Q4'", "overlap": "starts at data byte",
        "float_shape": "is malformed", "string_shape": "is malformed", "false_offset": "is malformed",
        "float_offset": "is malformed"}


def _edited(tmp_path, world, edit):
    """The world with the draft's header edited (data_offsets count from the header's end: the
    data stays as it is)."""
    root = tmp_path / "edited"
    shutil.copytree(world, root)
    path = root / "draft" / "model.safetensors"
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    name = edit(header)
    text = json.dumps(header, separators=(",", ":")).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + data[8 + length:])
    return root, path, name


def test_the_draft_as_saved_is_listed(world):
    assert list_weights(world / "draft").unreadable_weight_files == []
    read_safetensors_header(world / "draft" / "model.safetensors")


@pytest.mark.parametrize("how", sorted(EDITS))
def test_a_header_safetensors_refuses_is_not_listed_as_loadable(tmp_path, world, how):
    root, path, name = _edited(tmp_path, world, EDITS[how])
    assert _safe_open_refuses(path).startswith("Error while deserializing header: ")
    listing = list_weights(root / "draft")
    assert listing.unreadable_weight_files == ["model.safetensors"]
    assert listing.tensors == {}
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD710"]
    assert (finding.severity, finding.facts["unreadable_weight_files"]) == ("error", ["model.safetensors"])
    with pytest.raises(CheckpointError) as raised:
        read_safetensors_header(path)
    assert raised.value.message.startswith(f"{path}: safetensors header entry {name!r} {WHAT[how]}")
    assert "safetensors refuses the whole file over it" in raised.value.message


def test_extra_keys_in_an_entry_are_taken_as_safetensors_takes_them(tmp_path, world):
    root, path, _ = _edited(tmp_path, world, lambda header: header[_first(header)].update(x=1))
    assert _safe_open_refuses(path) is None
    assert list_weights(root / "draft").unreadable_weight_files == []
    read_safetensors_header(path)
