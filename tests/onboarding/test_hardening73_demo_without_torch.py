"""`spec-debug demo` in a Python without torch (a plain `pip install spec-debug`, without the
eagle3 extra the README names for the demo) ran anyway: its vocab, hidden_layout and
drafter_eval steps failed with "No module named 'torch' ... run the probe with a Python that has
torch (--var python=/path/to/venv/bin/python)", a --var the demo does not take, and the verdict
was drawn without the drafter, the point of the demo. It now stops before the run with one line
naming what is missing and this Python's pip command; no run folder is left behind.

The demo host's probes run with this very Python (demo.demo_vars: python = sys.executable), so
the controller lacking the module is the case; the module is made absent as an uninstalled one
is (sys.modules[name] = None: import and find_spec both find nothing)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest


def demo_without(module: str, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    script = (f"import sys; sys.modules[{module!r}] = None; sys.argv = ['spec-debug', 'demo', *sys.argv[1:]]; "
              "from spec_debug.cli import main; main()")
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "200"}
    return subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, timeout=120,
                          cwd=tmp_path, env=env)


@pytest.mark.parametrize("module", ["torch", "safetensors"])
def test_the_demo_stops_before_running_and_says_what_to_install(tmp_path: Path, module: str) -> None:
    result = demo_without(module, tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"error: the demo needs the eagle3 extra ({module} is not installed in {sys.executable})",
        f"  hint: {sys.executable} -m pip install 'spec-debug[eagle3]'"]
    assert result.stdout == ""
    assert not (tmp_path / "runs").exists()


def test_step_and_healthy_stop_the_same_way(tmp_path: Path) -> None:
    for args in (("--step",), ("--healthy", "--json")):
        result = demo_without("torch", tmp_path, *args)
        assert result.returncode == 2
        assert result.stderr.splitlines()[0] == (
            f"error: the demo needs the eagle3 extra (torch is not installed in {sys.executable})")
        assert result.stdout == ""
    assert not (tmp_path / "runs").exists()
