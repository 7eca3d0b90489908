"""Hermes Agent starts a long command with ``terminal(background=true, notify_on_complete=true)``,
answers ``{"output": "Background process started", "session_id": "proc_…", ...}`` at once, and when
the process ends hands the model a user message of its own: ``[IMPORTANT: Background process
proc_… exited (exit code 1).\\nCommand: …\\nOutput:\\n…]`` (``completed normally (exit code 0)``,
``terminated by Hermes (exit code -15, SIGTERM)``; NousResearch/hermes-agent
``tools/process_registry.py`` ``format_process_notification``, drained into the CLI's
``_pending_input`` as a new turn).

Before: the notice was read as a prompt the person typed, the launch it reported stayed running
(no exit code) and the CUDA OOM in its output was no error. Now the notice is the launch's end:
exit 1, the OOM its error, and no prompt; a notice whose start is not in the file is a system note."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
JOB = "proc_4dae56ca81f6"
CRASH = ("Loading the draft model...\nTraceback (most recent call last):\n"
         "  File \"/srv/sglang/python/sglang/srt/managers/scheduler.py\", line 10, in <module>\n"
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")
ASKED = "start the EAGLE-3 server in the background and tell me when it finishes"


def _session(tmp_path: Path, notices: list[str], started: bool = True) -> Path:
    messages: list[dict] = [{"role": "user", "content": ASKED}]
    if started:
        messages += [
            {"role": "assistant", "content": "", "tool_calls": [
                {"id": "call_0", "type": "function", "function": {"name": "terminal", "arguments": json.dumps(
                    {"command": LAUNCH, "background": True, "notify_on_complete": True})}}]},
            {"role": "tool", "tool_call_id": "call_0", "content": json.dumps(
                {"output": "Background process started", "session_id": JOB, "pid": 4242, "exit_code": 0,
                 "error": None, "notify_on_complete": True})},
            {"role": "assistant", "content": "Started; I will be told when it exits."}]
    for notice in notices:
        messages += [{"role": "user", "content": notice}, {"role": "assistant", "content": "Noted."}]
    path = tmp_path / "session_20261102_080000_0a1b2c.json"
    path.write_text(json.dumps({"session_id": "20261102_080000_0a1b2c", "messages": messages}))
    return path


def test_the_notice_of_a_crash_ends_the_launch_with_its_error(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        f"[IMPORTANT: Background process {JOB} exited (exit code 1).\nCommand: {LAUNCH}\nOutput:\n{CRASH}]"]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [
        ("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB", a.commands[0].seq)]
    assert [p.text for p in a.prompts] == [ASKED]


def test_a_watch_match_is_output_and_a_clean_end_no_failure(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        f"[IMPORTANT: Background process {JOB} matched watch pattern \"fired up\".\nCommand: {LAUNCH}\n"
        "Matched output:\nThe server is fired up and ready to roll!]",
        f"[IMPORTANT: Background process {JOB} completed normally (exit code 0).\nCommand: {LAUNCH}\n"
        "Output:\nshutting down]"]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 0, False)]
    assert a.errors == []
    assert [p.text for p in a.prompts] == [ASKED]


def test_a_notice_without_its_start_is_no_prompt(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        f"[IMPORTANT: Background process {JOB} completed (exit code 0).\nCommand: {LAUNCH}\nOutput:\nok]"],
        started=False))
    assert a.commands == []
    assert [p.text for p in a.prompts] == [ASKED]
