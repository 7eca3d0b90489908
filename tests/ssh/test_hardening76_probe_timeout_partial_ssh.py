"""A drafter evaluation on an SSH host, cut by its step's `timeout:`, keeps the scores it had.

Before: the kill script TERMs the step's tree, the drafter_eval probe answers with its JSON
(`stopped`, `partial`: the samples scored so far) and the channel is read on for the dying
words, but the runner read a timed-out probe's output as nothing: SD002 alone, no facts. Now
the step is still a timeout and the probe's JSON is read as its result, as for a local host
(tests/core/test_hardening76_probe_timeout_partial.py). Real sshd on loopback; checkpoint and
samples saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, Callable

from tests.eagle3._world import informative_world, torch  # noqa: F401
from tests.ssh.test_fleet_faults import load_run
from tests.sshd_fixture import ClientSetup

world = informative_world("h76_probe_timeout_ssh", seed=1)


def test_an_ssh_step_timeout_keeps_the_evaluations_scores_so_far(
        cli: Callable[..., Any], client: ClientSetup, world: Path, tmp_path: Path) -> None:
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
        f"      hidden_states: {many}\n"
        "      max_samples: all\n"
        f"      python: {sys.executable}\n"
        "    timeout: 30\n"  # torch's import on a loaded machine, then some samples scored
    )
    out = tmp_path / "runs"
    done = cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch", "--out", str(out),
               timeout=240)
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    _, record = load_run(out)
    (step,) = record["steps"]
    assert step["status"] == "timeout"
    assert step["message"] == "timed out after 30 s; process tree killed"
    printed = json.loads(step["stdout"])  # what the probe printed on the SIGTERM
    n = printed["partial"]["samples"]
    assert 1 <= n < 20000 and printed["stopped_run"] == "reference"
    assert printed["stopped"].startswith(f"terminated (SIGTERM) in the reference evaluation after {n} sample")
    # was: no facts, one SD002 finding
    assert step["facts"]["eval"]["stopped"] == printed["stopped"]
    assert [(f["code"], f["evidence"][0]) for f in record["findings"]][:2] == [
        ("SD002", "timed out after 30 s; process tree killed"), ("SD004", "the evaluation was stopped: " + printed["stopped"])]
