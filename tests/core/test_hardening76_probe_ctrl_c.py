"""Ctrl-C on a probe's command, run by hand as the report's appendix shows it (`python3
~/.cache/spec-debug/bundle-....pyz spec_debug.probes.hidden_layout '{...}'`), ended in a Python
traceback through zipimport frames and no JSON: the bundle's entry point reports every failure
as one JSON line but caught Exception only. Now it prints one line, `{"__probe_error__":
{"type": "KeyboardInterrupt", "message": "interrupted (Ctrl-C) before probe hidden_layout
finished"}}`, and exits 130; drafter_eval, which has scores to keep, still returns them itself
(test_hardening75_probe_eval_stopped). The bundle is the one the runner ships; checkpoint and
samples saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.eagle3._world import informative_world, torch  # noqa: F401

from spec_debug.probes.bundle import local_bundle

world = informative_world("h76_probe_ctrl_c", seed=1)


def _imports_torch(pid: int) -> bool:
    """Whether the probe has reached its work: torch's libraries mapped (hidden_layout imports
    torch inside its run(), after the entry point's try began)."""
    try:
        return "libtorch" in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def test_ctrl_c_on_a_probe_run_by_hand_says_one_line(world: Path, tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for i in range(400):  # the three samples again and again (links): a probe that runs a while
        os.link(world / "data" / f"hs_{i % 3}.safetensors", many / f"hs_{i}.safetensors")
    args = {"hidden_states": str(many), "draft_model": str(world / "draft"), "target_model": str(world / "target")}
    probe = subprocess.Popen([sys.executable, str(local_bundle()), "spec_debug.probes.hidden_layout", json.dumps(args)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                             env={**os.environ, "HF_HUB_OFFLINE": "1"})
    try:
        until = time.monotonic() + 120
        while not _imports_torch(probe.pid) and probe.poll() is None and time.monotonic() < until:
            time.sleep(0.01)
        probe.send_signal(signal.SIGINT)  # what Ctrl-C at the terminal sends
        out, err = probe.communicate(timeout=120)
    finally:
        if probe.poll() is None:
            probe.kill()
            probe.wait()
    assert "Traceback" not in err, err[-2000:]  # was: a traceback ending in KeyboardInterrupt
    assert probe.returncode == 130  # was -2 (killed by SIGINT), nothing on stdout
    assert json.loads(out) == {"__probe_error__": {
        "type": "KeyboardInterrupt", "message": "interrupted (Ctrl-C) before probe hidden_layout finished"}}
    assert out.count("\n") == 1
