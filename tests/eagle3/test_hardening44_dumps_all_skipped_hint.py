"""A dump in which every file is skipped for one reason that has a fix: speculators' FP8
hidden states copied without their hidden_states_scales (the header reads fine, so the files
are only refused when read). The run ended in "no usable samples (...; first: ...)" with no
hint, though the refusal of each file carried one. The first skip's fix now reaches the
user with the error, for both drafter eval and drafter layout."""

from __future__ import annotations

from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file

from tests.eagle3._world import informative_world, runner, torch

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h44_all_skipped_hint", seed=44)


def _fp8_without_scales(world: Path, out: Path) -> Path:
    out.mkdir()
    for i in range(3):
        tensors = load_file(str(world / "data" / f"hs_{i}.safetensors"))
        save_file({"token_ids": tensors["token_ids"],
                   "hidden_states": tensors["hidden_states"].to(torch.float8_e4m3fn)},
                  str(out / f"hs_{i}.safetensors"))
    return out


@pytest.mark.parametrize("command", ["eval", "layout"])
def test_the_fix_of_the_skipped_files_reaches_the_user(world, tmp_path, command):
    data = _fp8_without_scales(world, tmp_path / "fp8")
    result = runner.invoke(drafter_app, [command, "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    message = " ".join(result.output.split())
    assert result.exit_code == 2, result.output
    assert "no usable samples (3 sample file(s) skipped" in message, message
    assert ("hint: copy the files as the connector wrote them, or dump the hidden states again "
            "in bfloat16") in message, message
