"""--vocab-mapping given a file that torch.save never wrote (the draft's config.json, a text
file): the error line was torch's first one, "Weights only load failed. ... Re-running
`torch.load` with `weights_only` set to `False` will likely succeed", a step that would not
succeed and is not the user's to take. It now says what the file is not."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")

from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.eagle3.vocab_mapping import read_vocab_mapping  # noqa: E402


@pytest.mark.parametrize("content", [b'{\n  "architectures": ["Eagle3DraftModel"]\n}\n',
                                     b"d2t,t2d\n0,1\n"])
def test_a_file_torch_save_did_not_write_is_named_so(tmp_path, content):
    path = tmp_path / "vocab_mapping.pt"
    path.write_bytes(content)
    with pytest.raises(CheckpointError) as caught:
        read_vocab_mapping(path, draft_vocab_size=128, vocab_size=256)
    message = str(caught.value)
    assert "not a torch.save file" in message, message
    assert "weights_only" not in message, message


def test_a_real_torch_save_map_still_reads(tmp_path):
    path = tmp_path / "vocab_mapping.pt"
    t2d = torch.zeros(256, dtype=torch.bool)
    t2d[::2] = True
    torch.save({"d2t": torch.arange(128), "t2d": t2d}, path)
    mapping = read_vocab_mapping(path, draft_vocab_size=128, vocab_size=256)
    assert mapping.d2t.tolist() == list(range(128))
