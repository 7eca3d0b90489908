"""bench/playbook_validation.py --steps 1001 builds a long playbook of 10,010 steps, past the
loader's bound (yaml_nodes.MAX_STEPS): it ended in a PlaybookError traceback after 12 s of CPU
(and --steps 0 in an AssertionError). Now the bench refuses the option at once, in one line that
says the range to give."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from spec_debug.playbook.yaml_nodes import MAX_STEPS

BENCH = Path(__file__).resolve().parents[2] / "bench" / "playbook_validation.py"


def _bench():
    spec = importlib.util.spec_from_file_location("playbook_validation_bench", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("steps", [MAX_STEPS // 10 + 1, 0])
def test_steps_past_the_loader_bound_are_refused_before_anything_is_built(steps, monkeypatch, capsys):
    bench = _bench()
    monkeypatch.setattr(sys, "argv", [str(BENCH), "--steps", str(steps), "--repeat", "1"])
    with pytest.raises(SystemExit) as exited:
        bench.main()
    assert exited.value.code == 2
    assert f"give --steps from 1 to {MAX_STEPS // 10}" in capsys.readouterr().err.splitlines()[-1]
