"""OpenCode's task tool runs a sub-agent in a session of its own whose ``parentID`` is the caller's
session, its id in the call's ``state.metadata.sessionId`` (anomalyco/opencode, formerly sst/opencode,
``packages/opencode/src/tool/task.ts``). In the file storage that session is one more
``session/<project>/<id>.json`` with its messages and parts. It is read as an agent of the session
that started it, linked to the call. Before: a session of its own, its commands in no call."""

from __future__ import annotations

import importlib

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

_FILES = importlib.import_module("tests.session.test_hardening21_formats_opencode")
SESSION, PROJECT = _FILES.SESSION, _FILES.PROJECT
CHILD = "ses_6a1b2c3d5ffeSubAgent00001"
PROBE = "ssh gpu-3 nvidia-smi"


def _with_sub_session(root):
    storage = _FILES._storage(root)
    _FILES._write(storage / "session" / PROJECT / f"{CHILD}.json",
                  {"id": CHILD, "version": "0.15.8", "projectID": PROJECT, "directory": "/work/spec",
                   "parentID": SESSION, "title": "Check the GPUs (@general subagent)",
                   "time": {"created": 1767812660000, "updated": 1767812670000}})
    _FILES._write(storage / "message" / SESSION / "msg_b03.json",
                  {"id": "msg_b03", "sessionID": SESSION, "role": "assistant", "time": {"created": 1767812659000}})
    _FILES._write(storage / "part" / "msg_b03" / "prt_20.json", {
        "id": "prt_20", "sessionID": SESSION, "messageID": "msg_b03", "type": "tool", "callID": "toolu_task",
        "tool": "task", "state": {"status": "completed", "input": {"description": "Check the GPUs",
                                                                  "prompt": "check", "subagent_type": "general"},
                                  "output": "done", "metadata": {"sessionId": CHILD},
                                  "time": {"start": 1767812659000, "end": 1767812671000}}})
    _FILES._write(storage / "message" / CHILD / "msg_c01.json",
                  {"id": "msg_c01", "sessionID": CHILD, "role": "assistant", "time": {"created": 1767812661000}})
    _FILES._write(storage / "part" / "msg_c01" / "prt_21.json", _FILES._bash(21, "msg_c01", PROBE, 255, "refused"))
    return storage


def test_a_sub_agent_session_is_an_agent_of_the_session_its_task_call_started(tmp_path):
    storage = _with_sub_session(tmp_path)
    for named in (tmp_path / "opencode", storage):
        doc = analyze_path(named).to_json()
        assert [s["id"] for s in doc["sessions"]] == [SESSION], named
        assert [(c["command"], c["agent"], c["exit_code"]) for c in doc["commands"]][-1] == (PROBE, CHILD, 255)
        agent = next(a for a in doc["agents"] if a["id"] == CHILD)
        assert (agent["parent"], agent["spawned_by"]) == ("main", "toolu_task"), named


def test_a_sub_agent_session_named_alone_is_still_a_session(tmp_path):
    storage = _with_sub_session(tmp_path)
    found = discover(storage / "session" / PROJECT / f"{CHILD}.json")
    assert [s.id for s in found] == [CHILD]


def test_a_session_file_named_alone_comes_with_its_sub_agent_sessions(tmp_path):
    storage = _with_sub_session(tmp_path)
    doc = analyze_path(storage / "session" / PROJECT / f"{SESSION}.json").to_json()
    assert [s["id"] for s in doc["sessions"]] == [SESSION]
    assert [(c["command"], c["agent"]) for c in doc["commands"]][-1] == (PROBE, CHILD)
