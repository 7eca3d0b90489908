"""A speculators 0.9.0 draft whose model.safetensors header was rewritten by another tool: JSON
that Python's json reads and safetensors' own reader (UTF-8, then Rust's serde_json) refuses.

Before: the probes' listing and the drafter read the header with json.loads(bytes), which takes
a UTF-8 byte-order mark and UTF-16 text (it guesses the encoding), NaN and Infinity, a field of
an entry or __metadata__ given twice (the last one kept) and a lone surrogate escape. Each of
those files was listed as loadable (no SD710 from the configs step) although safetensors 0.8.0's
safe_open, which vLLM and SGLang load every weight file with, refuses the whole file ("invalid
JSON in header: expected value at line 1 column 1", "duplicate field `dtype`", ...); bytes
other than spaces after the JSON inside the header's length were refused with Python's
"Extra data: line 1 column 142 (char 141)" and no word of what they were. Now both read the
header with hostfiles.load_header_json, which refuses what safetensors refuses and says what it
is. Each refusal below is asserted against safe_open itself; what safe_open takes (spaces
around the object, a tensor or a __metadata__ key given twice, an unknown field) still reads."""

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
from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from spec_debug.probes.hostfiles import list_weights  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening71_probe_header_entries import _safe_open_refuses  # noqa: E402


def _first(header: dict) -> str:
    return next(name for name in header if name != "__metadata__")


def _in_first_entry(text: str, header: dict, added: str) -> str:
    """`added` written as the first field of the first tensor's entry."""
    opening = f'"{_first(header)}":{{'
    assert text.count(opening) == 1
    return text.replace(opening, opening + added)


# each: (the header's bytes from its JSON text and the parsed header, what spec-debug says)
REFUSED = {
    "utf8_bom": (lambda text, header: b"\xef\xbb\xbf" + text.encode(),
                 "the safetensors header begins with a UTF-8 byte-order mark (ef bb bf)"),
    "utf16": (lambda text, header: text.encode("utf-16-le"),
              "the safetensors header is UTF-16 text, not UTF-8"),
    "utf16_bom": (lambda text, header: text.encode("utf-16"),
                  "the safetensors header is UTF-16 text, not UTF-8"),
    "nan": (lambda text, header: _in_first_entry(text, header, '"x":NaN,').encode(),
            "the safetensors header holds NaN, which JSON does not allow"),
    "infinity": (lambda text, header: _in_first_entry(text, header, '"x":-Infinity,').encode(),
                 "the safetensors header holds -Infinity, which JSON does not allow"),
    # the first dtype is a wrong one: json keeps the second, the right one
    "dtype_twice": (lambda text, header: _in_first_entry(text, header, '"dtype":"F64",').encode(),
                    "the safetensors header gives 'dtype' twice in entry '{first}' "
                    "(safetensors: \"duplicate field `dtype`\")"),
    "metadata_twice": (lambda text, header: ('{"__metadata__":{"format":"np"},' + text[1:]).encode(),
                       "the safetensors header gives __metadata__ twice"),
    "nul_padding": (lambda text, header: text.encode() + b"\x00" * 6,
                    "the safetensors header has 6 byte(s) after its JSON object inside its length "
                    "(00 00 00 00 00 00): safetensors' writer pads a header with spaces only"),
    "lone_surrogate": (lambda text, header: text.replace('"format":"pt"', '"format":"pt\\ud800"').encode(),
                       "the safetensors header holds a lone surrogate escape"),
}

TAKEN = {
    "spaces_around": lambda text, header: ("\n \t" + text + "  \r\n").encode(),
    "metadata_key_twice": lambda text, header: text.replace('"format":"pt"', '"format":"np","format":"pt"').encode(),
    "tensor_twice": lambda text, header: (
        text[:-1] + f',"{_first(header)}":' + json.dumps(header[_first(header)], separators=(",", ":")) + "}").encode(),
    "escaped_name": lambda text, header: text.replace(f'"{_first(header)}":', '"\\u' + f"{ord(_first(header)[0]):04x}"
                                                      + f'{_first(header)[1:]}":', 1).encode(),
}


def _rewritten(tmp_path, world, rewrite):
    """The world with the draft's header rewritten (its length with it; the data as it is)."""
    root = tmp_path / "rewritten"
    shutil.copytree(world, root)
    path = root / "draft" / "model.safetensors"
    data = path.read_bytes()
    (length,) = struct.unpack("<Q", data[:8])
    header = json.loads(data[8:8 + length])
    assert header.get("__metadata__") == {"format": "pt"}  # as speculators saved it
    raw = rewrite(json.dumps(header, separators=(",", ":")), header)
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data[8 + length:])
    return root, path, header


@pytest.mark.parametrize("how", sorted(REFUSED))
def test_a_header_json_safetensors_refuses_is_sd710_with_what_is_wrong(tmp_path, world, how):
    rewrite, said = REFUSED[how]
    root, path, header = _rewritten(tmp_path, world, rewrite)
    said = said.format(first=_first(header))
    assert _safe_open_refuses(path).startswith("Error while deserializing header: ")
    listing = list_weights(root / "draft")
    assert (listing.unreadable_weight_files, listing.tensors) == (["model.safetensors"], {})
    assert listing.unreadable_reasons["model.safetensors"].startswith(f"model.safetensors: {said}")
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD710"]
    assert finding.severity == "error"
    assert finding.evidence[0].startswith(f"model.safetensors: {said}")
    with pytest.raises(CheckpointError) as raised:
        read_safetensors_header(path)
    assert raised.value.message.startswith(f"{path}: {said}")
    assert "safetensors refuses the whole file over it" in raised.value.message


@pytest.mark.parametrize("how", sorted(TAKEN))
def test_a_header_json_safetensors_takes_still_reads(tmp_path, world, how):
    root, path, header = _rewritten(tmp_path, world, TAKEN[how])
    assert _safe_open_refuses(path) is None
    listing = list_weights(root / "draft")
    assert listing.unreadable_weight_files == []
    assert set(listing.tensors) == set(header) - {"__metadata__"}
    assert set(read_safetensors_header(path)) == set(header)


def test_the_vocab_probe_hands_the_refusal_on_as_sd710(tmp_path, world):
    """drafter_accuracy runs no configs step: the vocab step's SD710 names what is wrong (it
    read the header and stopped at the first tensor with safetensors' own words before)."""
    root, path, _ = _rewritten(tmp_path, world, REFUSED["utf8_bom"][0])
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    assert raw["no_engine_weights"]["unreadable_weight_files"] == ["model.safetensors"]
    found = vocab_step.check(context(vocab_step.parse(raw), {}))
    assert [(f.code, f.severity) for f in found] == [("SD710", "error")]
    assert found[0].evidence[0].startswith(
        f"{path}: the safetensors header begins with a UTF-8 byte-order mark (ef bb bf)")


def test_a_header_of_zero_bytes_is_still_one_that_cannot_be_read(tmp_path, world):
    """No JSON at all (a file whose header was overwritten with zeros) is not said as a header
    another tool rewrote (UTF-16 text, bytes after the object): the listing's generic words,
    the drafter's "cannot read safetensors header"."""
    root, path, _ = _rewritten(tmp_path, world, lambda text, header: bytes(len(text)))
    assert _safe_open_refuses(path).startswith("Error while deserializing header: ")
    listing = list_weights(root / "draft")
    assert (listing.unreadable_weight_files, listing.unreadable_reasons) == (["model.safetensors"], {})
    with pytest.raises(CheckpointError) as raised:
        read_safetensors_header(path)
    assert raised.value.message == (f"{path}: cannot read safetensors header (Expecting value: line 1 "
                                    "column 1 (char 0))")
