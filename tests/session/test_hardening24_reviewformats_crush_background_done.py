"""Crush's bash tool with ``run_in_background`` waits a second for a fast end (a blocked command, a
syntax error, a quick run) and then writes the run as finished: its output with ``Exit code N`` when N
is not 0, and ``BashResponseMetadata`` with ``background: true`` but no ``shell_id`` (charmbracelet/crush
``internal/agent/tools/bash.go`` since 4401d5b, background jobs). A run still going is written with
the ``shell_id`` of its job. Before, every ``background`` result was taken as still running: a run
that had ended with 0 had no exit code."""

from __future__ import annotations

import importlib

from spec_debug.session import analyze_path

_CASE = importlib.import_module("tests.session.test_hardening24_formats_crush_exit_zero")
_CRUSH = _CASE._CRUSH
WD = "/home/ops/eagle3"
BASE = {"start_time": 1754711253674, "end_time": 1754711254690, "description": "", "working_directory": WD,
        "background": True}


def test_a_background_run_that_ended_at_once_has_its_exit_code(tmp_path):
    db = _CRUSH._store(tmp_path / ".crush")
    _CASE._add(db, _CASE._run(1, "nvidia-smi -L", f"GPU 0: NVIDIA H100\n\n<cwd>{WD}</cwd>",
                              {**BASE, "output": "GPU 0: NVIDIA H100"})
               + _CASE._run(2, "ls /models/draft", f"ls: cannot access '/models/draft'\nExit code 2\n\n<cwd>{WD}</cwd>",
                            {**BASE, "output": "ls: cannot access '/models/draft'\nExit code 2"})
               + _CASE._run(3, "vllm serve meta-llama/Llama-3.1-8B-Instruct",
                            "Background shell started with ID: 002\n\nUse job_output tool to view output or "
                            "job_kill to terminate.", {**BASE, "output": "", "shell_id": "002"}))
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in analyze_path(db).to_json()["commands"]}
    assert got["nvidia-smi -L"] == (0, False)
    assert got["ls /models/draft"] == (2, True)
    assert got["vllm serve meta-llama/Llama-3.1-8B-Instruct"] == (None, False)  # still running
