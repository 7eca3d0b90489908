"""The playbook's drafter_eval probe stopped mid-evaluation (SIGTERM: a step timeout or a
cancelled CI job; SIGHUP: the SSH session closed) on a dump of many samples. The process died
with the default action: no JSON, no word of the samples scored, where `drafter eval` says
the scores so far and exits 130. Now the probe says its progress on stderr (flushed, the
first sample at once), turns SIGTERM/SIGHUP into a stop while it evaluates, and prints its
JSON with `stopped` (the same scores-so-far line as `drafter eval`, in the playbook's words)
and `partial` (the counts); the eval step says it as an SD004 line. The runner still has to
send SIGTERM (not SIGKILL) first and read the probe's stdout after it to keep them. Saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

from tests.eagle3._world import informative_world, torch  # noqa: F401

from spec_debug.diagnose.steps import eval_step
from tests.diagnose.test_steps import context

world = informative_world("h75_probe_stopped", seed=1)
ROOT = Path(__file__).resolve().parents[2]


def test_a_sigterm_keeps_the_scores_so_far(world, tmp_path):
    many = tmp_path / "many"
    many.mkdir()
    for i in range(400):  # the three samples again and again: a run long enough to stop
        shutil.copy(world / "data" / f"hs_{i % 3}.safetensors", many / f"hs_{i}.safetensors")
    args = {"draft_model": str(world / "draft"), "target_model": str(world / "target"),
            "hidden_states": str(many)}
    env = {**os.environ, "PYTHONPATH": str(ROOT), "HF_HUB_OFFLINE": "1"}
    probe = subprocess.Popen([sys.executable, "-m", "spec_debug.probes.hostmain",
                              "spec_debug.probes.drafter_eval", json.dumps(args)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    try:
        for line in probe.stderr:  # was: no progress line at all
            if line.startswith("drafter_eval: reference: "):
                assert line == "drafter_eval: reference: 1 sample scored\n"
                break
        probe.send_signal(signal.SIGTERM)
        out, _ = probe.communicate(timeout=120)
    finally:
        if probe.poll() is None:
            probe.kill()
            probe.wait()
    assert probe.returncode == 0  # was -15, nothing on stdout
    result = json.loads(out)
    assert result["stopped_run"] == "reference" and "reference" not in result
    partial = result["partial"]
    n = partial["samples"]
    assert 1 <= n < 400
    assert len(partial["full_total"]) == 3 and partial["rows"] == sum(
        14 for _ in range(n)) - n  # 14 tokens a sample, 13 rows scored at step 0
    assert result["stopped"].startswith(
        f"terminated (SIGTERM) in the reference evaluation after {n} sample"
        f"{'' if n == 1 else 's'} scored; so far full acc per step ")
    assert result["stopped"].endswith(f": --var max_samples={n} scores the same samples and "
                                      "reports them in full")
    [line] = [f for f in eval_step.check(context(eval_step.parse(result), {}))
              if f.evidence and str(f.evidence[0]).startswith("the evaluation was stopped: ")]
    assert line.code == "SD004" and line.severity == "info"
    assert line.evidence[0] == "the evaluation was stopped: " + result["stopped"]
