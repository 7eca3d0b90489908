"""model_configs probe: a *.safetensors file whose header is JSON but no safetensors header
(round 24) is skipped like any unreadable file; it failed the whole probe with
"'list' object has no attribute 'pop'" and lost both models' configs."""

from __future__ import annotations

import json
import struct

from spec_debug.probes import model_configs


def _file(path, header, data=b"") -> None:
    raw = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(raw)) + raw + data)


def test_a_header_that_is_no_object_is_skipped(tmp_path):
    draft = tmp_path / "draft"
    draft.mkdir()
    (draft / "config.json").write_text(json.dumps({"architectures": ["LlamaForCausalLMEagle3"]}))
    _file(draft / "a.safetensors", [1, 2, 3])
    # a header safetensors opens (round 71: one it refuses, as an entry "odd": "x" or a shape
    # whose size is not its data_offsets span, is an unreadable file, not a listed one)
    _file(draft / "model.safetensors", {"__metadata__": {"format": "pt"}, "fc.weight": {
        "dtype": "BF16", "shape": [2, 2], "data_offsets": [0, 8]}},
          data=bytes(8))  # the 8 bytes its data_offsets describe (a file short of them is refused)
    result = model_configs.run({"draft_model": str(draft)})
    assert result["draft"]["found"] is True
    assert result["draft"]["tensors"] == {"fc.weight": [[2, 2], "BF16"]}
    assert result["draft"]["unreadable_weight_files"] == ["a.safetensors"]
