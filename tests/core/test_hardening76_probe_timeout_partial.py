"""A drafter evaluation cut by its step's `timeout:` keeps the scores it had so far.

Before: the timeout's kill sends SIGTERM first, and the drafter_eval probe answers it with
its JSON (`stopped`: the samples scored and their accuracies so far, `partial`: the counts),
but the runner read a timed-out probe's output as nothing: the report's finding said
"timed out after N s; process tree killed" over the progress lines, no facts, and the scores
were one raw JSON line in the appendix. Only a run stopped as a whole (SIGTERM to spec-debug)
brought them to the report. Now the step is still a timeout (SD002, status `timeout`), and
what the probe printed as it stopped is read as its result: the eval facts with `stopped`
and `partial`, and the eval step's SD004 line saying the scores so far. Checkpoint and
samples saved by speculators 0.9.0 (tests/eagle3/speculators_world.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.conftest import only_run
from tests.eagle3._world import informative_world, torch  # noqa: F401

world = informative_world("h76_probe_timeout", seed=1)
ROOT = Path(__file__).resolve().parents[2]


def test_a_step_timeout_keeps_the_evaluations_scores_so_far(world: Path, tmp_path: Path) -> None:
    many = tmp_path / "many"
    many.mkdir()
    for i in range(20000):  # the three samples again and again (links): far more than the timeout scores
        os.link(world / "data" / f"hs_{i % 3}.safetensors", many / f"hs_{i}.safetensors")
    playbook = tmp_path / "eval.yaml"
    playbook.write_text(
        "name: eval_cut\n"
        "steps:\n"
        "  - id: drafter_eval\n"
        "    probe: drafter_eval\n"
        "    with:\n"
        f"      draft_model: {world / 'draft'}\n"
        f"      target_model: {world / 'target'}\n"
        f"      hidden_states: {many}\n"
        "      max_samples: all\n"
        f"      python: {sys.executable}\n"
        "    timeout: 30\n"  # torch's import on a loaded machine, then some samples scored
    )
    out = tmp_path / "runs"
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    proc = subprocess.run([sys.executable, "-m", "spec_debug", "run", str(playbook), "--host", "local",
                           "--out", str(out)], capture_output=True, text=True, timeout=240, env=env, check=False)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    run_dir, record = only_run(out)
    (step,) = record["steps"]
    assert step["status"] == "timeout"
    assert step["message"] == "timed out after 30 s; process tree killed"
    printed = json.loads(step["stdout"])  # what the probe printed on the SIGTERM
    n = printed["partial"]["samples"]
    assert 1 <= n < 20000 and printed["stopped_run"] == "reference"
    stopped = printed["stopped"]
    assert stopped.startswith(f"terminated (SIGTERM) in the reference evaluation after {n} sample")
    # was: no facts, one SD002 finding
    assert step["facts"]["eval"]["stopped"] == stopped
    assert step["facts"]["eval"]["partial"] == printed["partial"]
    assert [(f["code"], f["severity"], f["step"]) for f in record["findings"]] == [
        ("SD002", "warning", "drafter_eval"), ("SD004", "info", "drafter_eval"), ("SD004", "info", "drafter_eval")]
    timed_out, stopped_line, unclaimed = record["findings"]
    assert timed_out["evidence"][0] == "timed out after 30 s; process tree killed"
    assert stopped_line["evidence"] == ["the evaluation was stopped: " + stopped]
    assert unclaimed["evidence"] == ["no claimed validation accuracy to compare the standalone accuracy with"]
    assert "the evaluation was stopped: " + stopped in (run_dir / "report.md").read_text()
