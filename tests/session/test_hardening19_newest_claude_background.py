"""Claude Code 2.1.x background shells: how a command started with ``run_in_background`` ended
is said only by the ``<task-notification>`` the CLI writes when it exits (the shapes published
sessions quote verbatim; see tests/data/transcripts_newest/README.md)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path

DATA = Path(__file__).resolve().parents[1] / "data" / "transcripts_newest"
SESSION = DATA / "c3d4e5f6-0000-4000-8000-00000000b001.jsonl"


def test_a_background_server_launch_that_died_is_a_failed_command_with_its_exit_code():
    doc = analyze_path(SESSION).to_json()
    # launch (tool-use-id named), nvidia-smi (task id only), benchmark and tail -f (two notes in one line)
    assert [(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (1, "gpu01", 1, True, 9), (3, "gpu02", 0, False, 10), (5, "gpu02", 2, True, 11),
        (7, "gpu02", None, False, None)]  # stopped by hand: no exit status given, not exit 0
    [main] = doc["agents"]
    assert (main["tool_calls"], main["failed_calls"]) == (4, 2)
    assert [(e["seq"], e["command_seq"], e["host"]) for e in doc["errors"]] == [(9, 1, "gpu01"), (11, 5, "gpu02")]
    # the notifications are the CLI's words, not prompts
    assert [p["seq"] for p in doc["prompts"]] == [0]
    assert doc["stats"]["unknown_types"] == 0


def test_a_notification_delivered_while_the_agent_worked_ends_its_command(tmp_path):
    # Mid-turn the CLI hands the note over as a queued_command attachment instead of a user line.
    lines = [json.loads(x) for x in SESSION.read_text().splitlines()[:3]]
    note = lines[0] | {"type": "attachment", "uuid": "q1", "message": None, "attachment": {
        "type": "queued_command", "commandMode": "task-notification",
        "prompt": "<task-notification>\n<task-id>bq4x7k2m1</task-id>\n<status>failed</status>\n"
                  "<summary>Background command \"Launch EAGLE-3 server\" failed with exit code 137</summary>\n"
                  "</task-notification>"}}
    path = tmp_path / SESSION.name
    path.write_text("".join(json.dumps(x) + "\n" for x in [*lines, note]))
    doc = analyze_path(path).to_json()
    assert [(c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [(137, True, 3)]


def test_a_note_for_a_task_this_file_never_started_invents_nothing(tmp_path):
    # A resumed session: the launch is in the earlier file; the note names a task id only.
    lines = [json.loads(x) for x in SESSION.read_text().splitlines()]
    path = tmp_path / SESSION.name
    path.write_text("".join(json.dumps(x) + "\n" for x in [lines[0], lines[10]]))
    doc = analyze_path(path).to_json()
    assert doc["commands"] == [] and doc["errors"] == []
    assert doc["agents"][0]["failed_calls"] == 0


def test_a_command_moved_to_the_background_and_a_monitor_have_not_ended_until_their_note_says():
    # A foreground Bash that outran its timeout is moved to the background by the CLI; a Monitor
    # watches a command; the end of the first is written only in the queue's copy (enqueue and
    # remove), the monitor's interim event names no exit status.
    doc = analyze_path(DATA / "c3d4e5f6-0000-4000-8000-00000000b002.jsonl").to_json()
    assert [(c["seq"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (1, 1, True, 5),        # pip install -e: failed, once, though the note is there twice
        (3, None, False, None)]  # the monitor runs on: no exit code, and not exit 0
    assert [(e["seq"], e["command_seq"]) for e in doc["errors"]] == [(5, 1)]
    assert doc["agents"][0]["failed_calls"] == 1
    assert doc["stats"]["unknown_types"] == 0 and doc["prompts"][0]["seq"] == 0 and len(doc["prompts"]) == 1


def test_stream_json_task_notification_ends_the_background_command_of_a_ci_run():
    # `claude -p --output-format stream-json`: the end comes as a system task_notification line,
    # after the run's own result line.
    doc = analyze_path(DATA / "c3d4e5f6-0000-4000-8000-00000000b006.jsonl").to_json()
    assert [(c["seq"], c["host"], c["exit_code"], c["is_error"], c["result_seq"]) for c in doc["commands"]] == [
        (1, "gpu01", 1, True, 5)]
    assert [(e["seq"], e["command_seq"]) for e in doc["errors"]] == [(5, 1)]
    assert [a["id"] for a in doc["agents"]] == ["main"]  # the shell's task id is no agent


def test_background_ends_read_the_same_by_worker_processes(monkeypatch):
    # Big files are cut into spans parsed by worker processes, which drop a result's text once
    # scanned: the task id a launch result names must still lead its note back to the call.
    import multiprocessing

    import pytest

    from spec_debug.session import parallel

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("the worker processes are forked")
    path = DATA / "c3d4e5f6-0000-4000-8000-00000000b001.jsonl"
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", float("inf"))
    one = analyze_path(path).to_json()
    monkeypatch.setattr(parallel, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(parallel, "SPAN_BYTES", 1024)
    monkeypatch.setattr(parallel, "worker_count", lambda: 2)
    many = analyze_path(path).to_json()
    assert [(c["exit_code"], c["result_seq"]) for c in many["commands"]] == [(1, 9), (0, 10), (2, 11), (None, None)]
    assert many["commands"] == one["commands"] and many["errors"] == one["errors"]


def test_a_note_in_the_trunk_for_a_sub_agents_command_is_no_failure_of_the_trunk():
    # The sub-agent ended before its background benchmark did, so the CLI wrote the note into
    # the trunk; the trunk never ran that call: it ends the sub-agent's (read after the trunk).
    doc = analyze_path(DATA / "c3d4e5f6-0000-4000-8000-00000000b008.jsonl").to_json()
    assert [(a["id"], a["tool_calls"], a["failed_calls"], a["errors"]) for a in doc["agents"]] == [
        ("main", 1, 0, 0), ("a3f9c2e1b7d4a6c80", 1, 1, 1)]
    assert [(e["agent"], e["command_seq"]) for e in doc["errors"]] == [("a3f9c2e1b7d4a6c80", 5)]
    assert [(c["agent"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [("a3f9c2e1b7d4a6c80", 1, True)]
