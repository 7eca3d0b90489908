"""A dump file whose pickle calls a function on load (a class with __reduce__ returning
os.system, as a tampered or carelessly written dumper leaves it). torch's weights_only load
refuses it, but its text says "unsupported GLOBAL posix.system whose module posix is
blocked", which the refusal did not read: the user got "it pickles other objects" without
the name of what the file would have run. Now the refusal names it, and nothing runs."""

from __future__ import annotations

import os
from pathlib import Path

from tests.eagle3._world import informative_world, runner, torch

from spec_debug.eagle3.commands import drafter_app

world = informative_world("h44_pickled_call", seed=44)


class _RunsACommand:
    """Pickled as a call of os.system (posix.system on Linux) with `command`."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def _eval_error(world: Path, data: Path) -> str:
    result = runner.invoke(drafter_app, ["eval", "--model", str(world / "draft"), "--data",
                                         str(data), "--target", str(world / "target")])
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


def test_a_dump_that_would_run_a_command_is_refused_with_the_call_named(world, tmp_path):
    marker = tmp_path / "ran"
    data = tmp_path / "dump"
    data.mkdir()
    hs = torch.zeros(8, 32)
    torch.save({"input_ids": torch.arange(8), "hidden_states": [hs, hs, hs, hs],
                "meta": _RunsACommand(f"touch {marker}")}, data / "data_0.pt")
    message = _eval_error(world, data)
    assert "data_0.pt: not a torch.save of tensors: it pickles other objects (posix.system)" \
        in message, message
    assert "weights_only" not in message
    assert not marker.exists()
