"""A GitHub Actions job log (the raw log of a run's page, ``gh run view --log`` and
``--log-failed``, which put the job and step before each line): every line stamped, a ``run:``
step's script shown between ``##[group]Run ...`` and ``##[endgroup]`` with its ``shell:`` and
``env:``, a failed step ending with ``##[error]Process completed with exit code N.``. It read as
one text with no command: the CI launch that failed, its flags and its status were lost, and its
traceback a failure of no command. The lines are laid out as published job logs show them."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000")
JOB_LOG = """\
2025-10-01T10:00:00.1000000Z ##[group]Operating System
2025-10-01T10:00:00.1000000Z Ubuntu
2025-10-01T10:00:00.1000000Z ##[endgroup]
2025-10-01T10:00:01.0000000Z ##[group]Run actions/checkout@v4
2025-10-01T10:00:01.0000000Z with:
2025-10-01T10:00:01.0000000Z   repository: org/serving
2025-10-01T10:00:01.0000000Z ##[endgroup]
2025-10-01T10:00:02.0000000Z Syncing repository: org/serving
2025-10-01T10:00:03.0000000Z ##[group]Run nvidia-smi -L
2025-10-01T10:00:03.0000000Z nvidia-smi -L
2025-10-01T10:00:03.0000000Z shell: /usr/bin/bash -e {0}
2025-10-01T10:00:03.0000000Z ##[endgroup]
2025-10-01T10:00:04.0000000Z GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-1)
2025-10-01T10:00:05.0000000Z ##[group]Run python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
2025-10-01T10:00:05.0000000Z python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
2025-10-01T10:00:05.0000000Z   --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000
2025-10-01T10:00:05.0000000Z shell: /usr/bin/bash -e {0}
2025-10-01T10:00:05.0000000Z env:
2025-10-01T10:00:05.0000000Z   CUDA_VISIBLE_DEVICES: 0
2025-10-01T10:00:05.0000000Z ##[endgroup]
2025-10-01T10:00:09.0000000Z Traceback (most recent call last):
2025-10-01T10:00:09.0000000Z   File "/opt/venv/lib/python3.11/site-packages/sglang/srt/speculative/eagle_worker.py", line 88, in __init__
2025-10-01T10:00:09.0000000Z     self.hot_token_id = load_token_map(server_args.speculative_token_map)
2025-10-01T10:00:09.0000000Z ValueError: draft vocab 32000 does not match the target's 128256
2025-10-01T10:00:09.5000000Z ##[error]Process completed with exit code 1.
"""


@pytest.mark.parametrize("columns", ["", "serve\tLaunch server\t"])  # the raw log; gh run view --log
def test_a_job_log_gives_each_run_step_as_a_command_with_its_status(tmp_path: Path, columns: str) -> None:
    path = tmp_path / "job.log"
    path.write_text("".join(columns + line + "\n" for line in JOB_LOG.splitlines()))
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"], c["timestamp"]) for c in doc["commands"]] == [
        ("nvidia-smi -L", None, False, "2025-10-01T10:00:03.0000000Z"),
        (LAUNCH, 1, True, "2025-10-01T10:00:05.0000000Z")]  # the script's lines joined as bash reads them
    assert [(e["exception"], e["command_seq"]) for e in doc["errors"]] == [("ValueError", doc["commands"][1]["seq"])]


def test_a_group_that_never_ends_leaves_the_rest_of_the_log_as_output(tmp_path: Path) -> None:
    # a log cut short or mangled inside a step's group: its first lines are lost, not the rest
    lines = ["2025-10-01T10:00:00.0000000Z ##[group]Run ./bench.sh", "2025-10-01T10:00:00.0000000Z ./bench.sh"]
    lines += [f"2025-10-01T10:00:01.0000000Z line {n}" for n in range(600)]
    lines += ["2025-10-01T10:00:02.0000000Z Traceback (most recent call last):",
              '2025-10-01T10:00:02.0000000Z   File "/w/bench.py", line 3, in <module>',
              "2025-10-01T10:00:02.0000000Z RuntimeError: CUDA error: out of memory"]
    path = tmp_path / "job.log"
    path.write_text("\n".join(lines) + "\n")
    assert [e["exception"] for e in analyze_path(path).to_json()["errors"]] == ["RuntimeError"]
