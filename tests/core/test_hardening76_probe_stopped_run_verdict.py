"""A run stopped as a whole (a CI job's SIGTERM, Ctrl-C) while the drafter_eval probe evaluates
on the local host.

Before: the probe answered the SIGTERM with the scores so far (`stopped`, `partial`) and exited
0, so the step was "passed", the host "passed", and the run said "PASSED: 0 error(s) ... ·
terminated (SIGTERM) after every step had run" with exit code 0: the evaluation it cut read as
finished, and a CI job took the partial scores for a result. Now the step keeps what the probe
said (passed, its facts, SD004 "the evaluation was stopped: ..."), and the host and run end
ABORTED (exit code 3), as for any step the stop cut. Checkpoint and samples saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.conftest import only_run
from tests.eagle3._world import informative_world, torch  # noqa: F401

world = informative_world("h76_probe_stopped_local", seed=1)
ROOT = Path(__file__).resolve().parents[2]


def test_a_run_stopped_during_the_evaluation_ends_aborted_with_the_scores_so_far(world: Path, tmp_path: Path) -> None:
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
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1", "COLUMNS": "300", "NO_COLOR": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                             "--batch", "--out", str(out), "--show-output"],
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
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    said = stdout + stderr
    assert "Traceback" not in said, said[-2000:]
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    printed = json.loads(step["stdout"])  # what the probe printed on the SIGTERM
    n = printed["partial"]["samples"]
    assert 1 <= n < 20000 and printed["stopped"].startswith(
        f"terminated (SIGTERM) in the reference evaluation after {n} sample")
    # The step keeps what the probe answered.
    assert (step["status"], step["message"]) == ("passed", None)
    assert step["facts"]["eval"]["stopped"] == printed["stopped"]
    assert ("SD004", ["the evaluation was stopped: " + printed["stopped"]]) in [
        (f["code"], f["evidence"][:1]) for f in record["findings"]]
    # was: "passed", exit 0, "PASSED: ... · terminated (SIGTERM) after every step had run"
    assert record["status"] == "aborted"
    assert [(h["status"], h["error"]) for h in record["hosts"]] == [("aborted", "terminated (SIGTERM)")]
    assert proc.returncode == 3
    assert "after every step had run" not in said
    assert "ABORTED" in said
    # was: "host local aborted before its next step: ..." (the playbook has no next step)
    assert ("host local aborted during step drafter_eval: terminated (SIGTERM); "
            "its probe returned what it had so far") in said
    assert "before its next step" not in said
    assert "the evaluation was stopped: " + printed["stopped"] in (run_dir / "report.md").read_text()
