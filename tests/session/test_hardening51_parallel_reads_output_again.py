"""A Claude Code file of 16 MB or more is read by worker processes, which drop each tool
result's text once it is scanned. Three of the analysis's checks read that text again once the
command is known, and read nothing there: a command's own echoed status (`python3 check.py;
echo "EXIT: $?"`) stayed exit 0, a find whose only complaints are unreadable folders stayed a
failed call, and a Slurm job placed by `squeue` had readings on no host. A big file now reads
as the same session cut small does (the docs say the output is the same either way)."""

from __future__ import annotations

import multiprocessing
from datetime import datetime, timezone
from pathlib import Path

import pytest

from spec_debug.session import analyze_path, parallel
from tests.session.incident_story import _Writer
from tests.session.test_hardening37_slurm_job_output import DECODE, SQUEUE

SID = "ab510000-0000-4000-8000-000000000051"


def _session(tmp_path: Path) -> Path:
    w = _Writer(SID, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 job on the cluster is slow")
    for n in range(12):  # padding: the checks below fall in later spans
        w.bash(f"ssh login01 'ls /data/shard_{n:04d}'", "\n".join(f"sample_{i:05d}.pt" for i in range(40)))
    w.bash("ssh gpu01 'python3 /root/check.py; echo \"EXIT: $?\"'",
           'Traceback (most recent call last):\n  File "/root/check.py", line 3, in <module>\nValueError: bad\nEXIT: 1')
    w.bash("find / -name '*.safetensors'", "find: '/proc/1/fd': Permission denied\n/data/m.safetensors",
           exit_code=1)
    w.bash("ssh login01 squeue -u alice", SQUEUE)
    w.bash("ssh login01 tail -n 2 ~/jobs/slurm-12345.out", DECODE)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    return path


def test_a_file_read_by_worker_processes_reads_its_outputs_again(tmp_path: Path, monkeypatch) -> None:
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = _session(tmp_path)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = analyze_path(path).to_json()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 2048)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    many = analyze_path(path).to_json()
    assert [(c["inner"], c["exit_code"], c["is_error"]) for c in many["commands"][-4:]] == [
        ('python3 /root/check.py; echo "EXIT: $?"', 1, True),
        ("find / -name '*.safetensors'", 1, False),
        ("squeue -u alice", 0, False),
        ("tail -n 2 ~/jobs/slurm-12345.out", 0, False)]
    assert {m["host"] for m in many["metrics"]} == {"gpu-node-07"}
    for part in ("commands", "errors", "metrics", "findings", "agents", "stats"):
        assert many[part] == one[part], part


def test_a_sub_agents_last_words_read_by_worker_processes(tmp_path: Path, monkeypatch) -> None:
    """A sub-agent that could do nothing and said so ("I was unable to read the server log")
    failed in a small file; read by worker processes its words were dropped with the other
    texts, and it stayed ``completed``."""
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    from tests.session.test_hardening38_subagent_gave_up import REFUSED, TAIL, _analyze

    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 1024)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    _, agent = _analyze(tmp_path, [(TAIL, REFUSED, 255), (TAIL, REFUSED, 255)],
                        "I was unable to read the server log: ssh to gpu01 was refused both times.")
    assert (agent["status"], agent["tool_calls"], agent["failed_calls"]) == ("failed", 2, 2)
