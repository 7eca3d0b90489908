"""A dump whose ids leave the target's vocabulary: the HF labels (-100 where ignored) saved
as the ids, or ids of another model's (larger) tokenizer. Every file was skipped "token ids
span [-100, 255], outside the target vocabulary [0, 256)" and the run ended in "no usable
samples" with no hint: nothing said what such ids mean or what to do. The skip reason (the
only text that reaches the user when every file is skipped) now says it."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import informative_world, runner

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h44_ids_outside_vocab", seed=44)


def _dump_with_id(world: Path, out: Path, position: int, value: int) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        ids = tensors["token_ids"].clone()
        ids[position] = value
        save_file({"token_ids": ids, "hidden_states": tensors["hidden_states"]},
                  str(out / f"hs_{i}.safetensors"))
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
@pytest.mark.parametrize("position, value, why", [
    (-1, -100, "-100 is the ignore index of HF labels, so the labels were saved as the ids"),
    (3, 300, "ids the target's tokenizer never gives, so another model's tokenizer made this "
             "dump (or it is of another target)"),
])
def test_ids_outside_the_vocabulary_say_why(world, tmp_path, command, position, value, why):
    data = _dump_with_id(world, tmp_path / "dump", position, value)
    result = runner.invoke(drafter_app, [command, "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert "no usable samples" in message and "outside the target vocabulary [0, 256): " + why \
        in message, message
