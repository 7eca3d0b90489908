"""Round 28's every-position rerun (every loss_mask empty) leaves a sample's tail zero padding out
(data.every_position_mask), with no word: 37 rows scored of a dump of 42 tokens, while the same
file with no loss_mask at all is skipped for those rows ("states the capture never wrote ...
save the attention_mask"). Now the rerun says how many positions of how many samples it left
out as padding, and the fix."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

NOTE = ("1 of 3 samples end in 5 position(s) zero in every slot in all (batch padding saved "
        "without its attention_mask): scoring every position, they were left out, as a loss "
        "mask leaves padding out; save the attention_mask beside padded samples")


def test_the_rerun_says_what_padding_it_left_out(tmp_path):
    world = save_informative_world(tmp_path / "world", seed=1)
    dump, unpadded = tmp_path / "padded", tmp_path / "unpadded"
    dump.mkdir(), unpadded.mkdir()
    for path in sorted((world / "data").glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        tensors["loss_mask"] = torch.zeros(tensors["token_ids"].shape[0], dtype=torch.long)
        save_file(tensors, str(unpadded / path.name))
        if path.name == "hs_1.safetensors":
            tensors["hidden_states"][10:] = 0  # SpecForge's batch padding, 5 rows of 15
        save_file(tensors, str(dump / path.name))
    result = evaluate_drafter(world / "draft", dump, world / "target")
    assert result["counts"]["full_total"][0] == 37
    assert NOTE in result["notes"]
    result = evaluate_drafter(world / "draft", unpadded, world / "target")
    assert result["counts"]["full_total"][0] == 42
    assert not [n for n in result["notes"] if "zero in every slot" in n]
