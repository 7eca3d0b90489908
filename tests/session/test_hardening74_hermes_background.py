"""Hermes Agent runs a long command (a server launch) with ``terminal(background=true)``, which
answers at once ``{"output": "Background process started", "session_id": "proc_…", "pid", "exit_code":
0, "error": null}``; the model then polls it with the ``process`` tool, whose answer says whether it
still runs and, once it exited, its exit code and the tail of its output (``{"session_id",
"command", "status": "running" | "exited", "pid", "uptime_seconds", "output_preview",
"exit_code"}``: NousResearch/hermes-agent ``tools/terminal_tool.py``, ``tools/process_registry.py``
``poll``).

Before: the launch read as a command that succeeded (exit 0, the "Background process started"
answer), and the crash it ended in as the output of the poll, a call that ran nothing. Now the
start is the command's first output, and the poll that saw it exit is its end: the launch failed
with exit 1 and the CUDA OOM is its error."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

LAUNCH = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --port 30000"
JOB = "proc_4dae56ca81f6"
CRASH = ("Loading the draft model...\nTraceback (most recent call last):\n"
         "  File \"/srv/sglang/python/sglang/srt/managers/scheduler.py\", line 10, in <module>\n"
         "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB")


def _session(tmp_path: Path, polls: list[dict]) -> Path:
    messages = [{"role": "user", "content": "start the EAGLE-3 server in the background and check it"},
                {"role": "assistant", "content": "", "tool_calls": [
                    {"id": "call_0", "type": "function", "function": {
                        "name": "terminal", "arguments": json.dumps({"command": LAUNCH, "background": True})}}]},
                {"role": "tool", "tool_call_id": "call_0", "content": json.dumps(
                    {"output": "Background process started", "session_id": JOB, "pid": 4242, "exit_code": 0,
                     "error": None})}]
    for i, poll in enumerate(polls, 1):
        messages.append({"role": "assistant", "content": "", "tool_calls": [
            {"id": f"call_{i}", "type": "function", "function": {
                "name": "process", "arguments": json.dumps({"action": "poll", "session_id": JOB})}}]})
        messages.append({"role": "tool", "tool_call_id": f"call_{i}", "content": json.dumps(
            {"session_id": JOB, "command": LAUNCH, "pid": 4242, "uptime_seconds": 10 * i, **poll})})
    messages.append({"role": "assistant", "content": "Done."})
    path = tmp_path / "session_20261102_080000_0a1b2c.json"
    path.write_text(json.dumps({"session_id": "20261102_080000_0a1b2c", "messages": messages}))
    return path


def test_the_poll_that_saw_it_exit_ends_the_launch(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        {"status": "running", "output_preview": "Loading the draft model..."},
        {"status": "exited", "output_preview": CRASH, "exit_code": 1}]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, 1, True)]
    assert [(e.kind, e.message, e.command_seq) for e in a.errors] == [
        ("cuda_oom", "CUDA out of memory. Tried to allocate 2.00 GiB", a.commands[0].seq)]


def test_a_server_still_running_did_not_fail(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path, [
        {"status": "running", "output_preview": "The server is fired up and ready to roll!"}]))
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [(LAUNCH, None, False)]
    assert a.errors == []
