"""A dump file whose pickle calls a function on load (a class with __reduce__ returning
os.system, as a tampered or carelessly written dumper leaves it). torch's weights_only load
refuses it, but its text says "unsupported GLOBAL posix.system whose module posix is
blocked", which the refusal did not read: the user got "it pickles other objects" without
the name of what the file would have run. Now the refusal names it, and nothing runs."""

from __future__ import annotations

import os
from tests.eagle3._world import drafter_error, informative_world, torch

world = informative_world("h44_pickled_call", seed=44)


class _RunsACommand:
    """Pickled as a call of os.system (posix.system on Linux) with `command`."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return (os.system, (self.command,))


def test_a_dump_that_would_run_a_command_is_refused_with_the_call_named(world, tmp_path):
    marker = tmp_path / "ran"
    data = tmp_path / "dump"
    data.mkdir()
    hs = torch.zeros(8, 32)
    torch.save({"input_ids": torch.arange(8), "hidden_states": [hs, hs, hs, hs],
                "meta": _RunsACommand(f"touch {marker}")}, data / "data_0.pt")
    message = drafter_error(world, data)
    assert "data_0.pt: not a torch.save of tensors: it pickles other objects (posix.system)" \
        in message, message
    assert "weights_only" not in message
    assert not marker.exists()
