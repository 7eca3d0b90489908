"""A poll of a Claude Code background command (``BashOutput``, CLI 2.0.x; ``TaskOutput``, 2.1.x)
that finds it ended says how: ``<status>`` and ``<exit_code>`` (the result shapes transcript
viewers type and ports of the CLI's TaskOutputTool render). That is the launched command's
exit status, not the poll's: the launch had only said it runs in the background."""

from __future__ import annotations

import json
import multiprocessing

import pytest

from spec_debug.session import parallel
from spec_debug.session.analysis import analyze_path

SID = "eeee0000-0000-4000-8000-000000000019"
LAUNCH = ("ssh gpu01 'python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 --port 30000'")
CRASH = ("[2025-11-30 08:00:05 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
         '  File "/sgl-workspace/sglang/python/sglang/srt/model_executor/model_runner.py", line 1197, in init_memory_pool\n'
         "    raise RuntimeError(\n"
         "RuntimeError: Not enough memory. Please try to increase --mem-fraction-static.\n")


def _line(n: int, kind: str, content, **extra) -> dict:
    return {"parentUuid": None, "isSidechain": False, "userType": "external", "cwd": "/w", "sessionId": SID,
            "version": "2.1.220", "type": kind, "uuid": f"u{n}", "timestamp": f"2025-11-30T08:{n:02d}:00.000Z",
            "message": {"role": "assistant" if kind == "assistant" else "user", "content": content}, **extra}


def _task_output(status: str, exit_code: int | None, output: str, retrieval: str = "success") -> tuple[str, dict]:
    """TaskOutput's result: its text, and its toolUseResult."""
    parts = [f"<retrieval_status>{retrieval}</retrieval_status>", "<task_id>b9k2m4x7q</task_id>",
             "<task_type>local_bash</task_type>", f"<status>{status}</status>"]
    if exit_code is not None:
        parts.append(f"<exit_code>{exit_code}</exit_code>")
    parts.append(f"<output>\n{output}</output>")
    task = {"task_id": "b9k2m4x7q", "task_type": "local_bash", "status": status, "description": "Launch server",
            "output": output, **({"exitCode": exit_code} if exit_code is not None else {})}
    return "\n\n".join(parts), {"retrieval_status": retrieval, "task": task}


def _session(tmp_path, polls: list[tuple[str, dict | None]], tail: list[dict] = (), padding: int = 0):
    lines = [
        _line(0, "user", "start the EAGLE-3 server on gpu01 and wait for it"),
        _line(1, "assistant", [{"type": "tool_use", "id": "toolu_L", "name": "Bash", "input": {
            "command": LAUNCH, "description": "Launch server", "run_in_background": True}}]),
        _line(2, "user", [{"type": "tool_result", "tool_use_id": "toolu_L", "is_error": False, "content": (
            "Command running in background with ID: b9k2m4x7q. Output is being written to: "
            "/tmp/claude/tasks/b9k2m4x7q.output")}]),
        *[_line(10 + k, "assistant", [{"type": "text", "text": f"waiting ({k}) " + "x" * 900}]) for k in range(padding)],
    ]
    for k, (text, result) in enumerate(polls):
        lines.append(_line(3 + 2 * k, "assistant", [{"type": "tool_use", "id": f"toolu_P{k}", "name": "TaskOutput",
                                                     "input": {"task_id": "b9k2m4x7q", "block": True,
                                                               "timeout": 600000}}]))
        lines.append(_line(4 + 2 * k, "user", [{"type": "tool_result", "tool_use_id": f"toolu_P{k}", "content": text}],
                           **({"toolUseResult": result} if result is not None else {})))
    lines.extend(tail)
    path = tmp_path / f"{SID}.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return path


def _commands(doc: dict) -> list[tuple]:
    return [(c["seq"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]]


def test_a_task_output_poll_that_finds_the_server_dead_ends_its_launch(tmp_path):
    doc = analyze_path(_session(tmp_path, [_task_output("running", None, "loading weights\n", "timeout"),
                                           _task_output("failed", 1, CRASH)])).to_json()
    assert _commands(doc) == [(1, "gpu01", 1, True)]
    [error] = doc["errors"]
    assert (error["kind"], error["command_seq"], error["host"]) == ("kv_cache_memory", 1, "gpu01")
    [main] = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"], main["errors"]) == (3, 1, 1)  # the launch failed, no poll


def test_a_poll_that_finds_it_done_gives_the_launch_exit_0(tmp_path):
    doc = analyze_path(_session(tmp_path, [_task_output("completed", 0, "benchmark done\n")])).to_json()
    assert _commands(doc) == [(1, "gpu01", 0, False)]
    assert doc["errors"] == []


def test_a_poll_named_by_its_result_alone_ends_the_launch_too(tmp_path):
    # The text alone names the task (an export without toolUseResult) ...
    text, _ = _task_output("failed", 1, CRASH)
    doc = analyze_path(_session(tmp_path, [(text, None)])).to_json()
    assert _commands(doc) == [(1, "gpu01", 1, True)]
    # ... and BashOutput (2.0.x) names it in toolUseResult.shellId only
    bash_output = ("<status>failed</status>\n\n<exit_code>1</exit_code>\n\n<stderr>\n" + CRASH + "</stderr>\n\n"
                   "<timestamp>2025-11-30T08:05:00.000Z</timestamp>")
    result = {"shellId": "b9k2m4x7q", "command": LAUNCH, "status": "failed", "exitCode": 1, "stdout": "",
              "stderr": CRASH, "stdoutLines": 1, "stderrLines": 5, "timestamp": "2025-11-30T08:05:00.000Z"}
    (tmp_path / "again").mkdir()
    path = _session(tmp_path / "again", [(bash_output, result)])
    lines = [json.loads(x) for x in path.read_text().splitlines()]
    lines[3]["message"]["content"][0].update(name="BashOutput", input={})  # the call's input names nothing
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))
    assert _commands(analyze_path(path).to_json()) == [(1, "gpu01", 1, True)]


def test_the_later_notification_of_the_same_end_counts_once(tmp_path):
    note = ("<task-notification>\n<task-id>b9k2m4x7q</task-id>\n<tool-use-id>toolu_L</tool-use-id>\n"
            "<status>failed</status>\n<summary>Background command \"Launch server\" failed with exit code 1</summary>\n"
            "</task-notification>")
    doc = analyze_path(_session(tmp_path, [_task_output("failed", 1, CRASH)], [_line(9, "user", note)])).to_json()
    assert _commands(doc) == [(1, "gpu01", 1, True)]
    assert [e["kind"] for e in doc["errors"]] == ["kv_cache_memory"]


def test_a_poll_still_running_ends_nothing(tmp_path):
    doc = analyze_path(_session(tmp_path, [_task_output("running", None, "loading weights\n", "timeout")])).to_json()
    assert _commands(doc) == [(1, "gpu01", None, False)]
    assert doc["errors"] == []


def test_worker_processes_read_the_poll_the_same_way(tmp_path, monkeypatch):
    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = _session(tmp_path, [_task_output("failed", 1, CRASH)], padding=40)
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = analyze_path(path).to_json()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 4096)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    many = analyze_path(path).to_json()
    assert _commands(many) == [(1, "gpu01", 1, True)]
    assert many["commands"] == one["commands"] and many["errors"] == one["errors"]
