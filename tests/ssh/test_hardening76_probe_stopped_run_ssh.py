"""A run stopped as a whole (SIGTERM: a cancelled CI job; Ctrl-C) while the drafter_eval probe
evaluates on an SSH host keeps the scores so far, as on a local host.

Before: the step's tree on the host got the kill script's SIGTERM and the probe printed its JSON
(`stopped`, `partial`), but over SSH an interrupted step's channel was not read after the kill
(only a timed-out one's was): the record had the progress lines and no result, and with no
exit code to read after the kill the step was "interrupted" with its findings dropped. Now the
channel is read on after a stop too, and a probe whose JSON was read stands as its answer. Locally the
stream is read until it closes, and the scores reached the report (SD004: "the evaluation was
stopped: ..."). Real sshd on loopback; checkpoint and samples saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.eagle3._world import informative_world, torch  # noqa: F401
from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup

world = informative_world("h76_probe_stopped_ssh", seed=1)
REPO = Path(__file__).resolve().parents[2]


def test_a_run_stopped_while_an_ssh_host_evaluates_keeps_the_scores_so_far(
        client: ClientSetup, world: Path, tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for i in range(20000):  # the three samples again and again (links): far more than are scored
        os.link(world / "data" / f"hs_{i % 3}.safetensors", many / f"hs_{i}.safetensors")
    playbook = tmp_path / "eval.yaml"
    playbook.write_text(
        "name: eval_cut\n"
        "steps:\n"
        "  - id: drafter_eval\n"
        "    probe: drafter_eval\n"
        "    with:\n"
        f"      draft_model: {world / 'draft'}\n"
        f"      hidden_states: {many}\n"
        "      max_samples: all\n"
        f"      python: {sys.executable}\n"
    )
    out = tmp_path / "runs"
    env = {**os.environ, "PYTHONPATH": str(REPO), "HF_HUB_OFFLINE": "1", "COLUMNS": "300", "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "target", "-F",
                             str(client.config), "--batch", "--out", str(out), "--show-output"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        deadline = time.monotonic() + 180
        assert proc.stderr is not None
        for line in proc.stderr:  # the probe's first progress line, shown live
            if "drafter_eval: reference: 1 sample scored" in line:
                break
            assert time.monotonic() < deadline, "the evaluation never started"
        time.sleep(1.0)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert "Traceback" not in stderr, stderr[-2000:]
    _, record = load_run(out)
    (step,) = record["steps"]
    # was: status error, "interrupted: terminated (SIGTERM)", no stdout, no facts, no findings
    assert (step["status"], step["message"]) == ("passed", None)
    printed = json.loads(step["stdout"])  # what the probe printed on the SIGTERM
    n = printed["partial"]["samples"]
    assert 1 <= n < 20000 and printed["stopped"].startswith(
        f"terminated (SIGTERM) in the reference evaluation after {n} sample")
    assert step["facts"]["eval"]["stopped"] == printed["stopped"]
    assert ("SD004", ["the evaluation was stopped: " + printed["stopped"]]) in [
        (f["code"], f["evidence"][:1]) for f in record["findings"]]
