"""The Cline CLI 3's sub-agents (cline/cline SDK): the ``spawn_agent`` tool, ``{systemPrompt, task}``,
runs a sub-agent whose first prompt is the task (``sdk/packages/core/src/extensions/tools/team/
spawn-agent-tool.ts``); its talk is ``<agentId>.messages.json`` beside the session's own
(``src/session/session-artifacts.ts`` ``subagentArtifactPaths``). They are read as agents of the
session, each linked to the call whose task it ran. Before: each was a session of its own, its
commands in no call of the session that started it."""

from __future__ import annotations

import importlib
import json

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

_SDK = importlib.import_module("tests.session.test_hardening23_reviewformats_cline_sdk_sessions")
SESSION = _SDK.SESSION
TASK = "Check whether gpu-4 has the draft checkpoint and what its vocab size is."
PROBE = "ssh gpu-4 'ls /models/eagle3-draft && jq .vocab_size /models/eagle3-draft/config.json'"


def _with_sub_agent(home):
    folder = _SDK._session(home)
    main = folder / f"{SESSION}.messages.json"
    doc = json.loads(main.read_text(encoding="utf-8"))
    doc["messages"][-1]["content"].append({"type": "tool_use", "id": "tool-call-9", "name": "spawn_agent",
                                           "input": {"systemPrompt": "You check GPU hosts.", "task": TASK}})
    doc["messages"].append({"id": "msg_user_3", "role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "tool-call-9", "content": "gpu-4 has no draft checkpoint."}]})
    main.write_text(json.dumps(doc, indent="\t"), encoding="utf-8")
    sub = {"version": 1, "agent": "subagent", "sessionId": f"{SESSION}__agent_x7", "messages": [
        {"id": "s1", "role": "user", "content": [{"type": "text", "text": TASK}]},
        {"id": "s2", "role": "assistant", "ts": 1777073180000,
         "content": [{"type": "tool_use", "id": "sub-call-1", "name": "run_commands", "input": {"commands": [PROBE]}}]},
        {"id": "s3", "role": "user", "content": [{"type": "tool_result", "tool_use_id": "sub-call-1", "is_error": True,
                                                  "content": "ls: cannot access '/models/eagle3-draft'"}]},
        {"id": "s4", "role": "assistant", "content": [{"type": "text", "text": "gpu-4 has no draft checkpoint."}]}]}
    (folder / "agent_x7.messages.json").write_text(json.dumps(sub, indent="\t"), encoding="utf-8")
    return folder


def test_a_sub_agent_is_an_agent_of_its_session_linked_to_the_spawn_call(tmp_path):
    folder = _with_sub_agent(tmp_path / "home")
    for named in (tmp_path / "home", folder, folder / f"{SESSION}.messages.json"):
        doc = analyze_path(named).to_json()
        assert [s["id"] for s in doc["sessions"]] == [SESSION], named
        assert [(c["command"], c["agent"], c["host"]) for c in doc["commands"]] == [
            (_SDK.LAUNCH, "main", "gpu-3"), (PROBE, "agent_x7", "gpu-4")], named
        agent = next(a for a in doc["agents"] if a["id"] == "agent_x7")
        assert (agent["parent"], agent["spawned_by"], agent["type"]) == ("main", "tool-call-9", "subagent"), named


def test_a_sub_agent_copied_alone_is_still_a_session(tmp_path):
    folder = _with_sub_agent(tmp_path / "home")
    found = discover(folder / "agent_x7.messages.json")
    assert [s.id for s in found] == [f"{SESSION}-agent_x7"]


def test_a_spawn_call_with_a_long_system_prompt_is_still_linked(tmp_path):
    """The call's text is its arguments cut at 2,000 characters, and ``systemPrompt`` comes before
    ``task``: with a system prompt of a few thousand characters the task was cut off, no link."""
    folder = _with_sub_agent(tmp_path / "home")
    main = folder / f"{SESSION}.messages.json"
    doc = json.loads(main.read_text(encoding="utf-8"))
    call = doc["messages"][-2]["content"][-1]
    call["input"]["systemPrompt"] = "You check GPU hosts for a speculative-decoding rollout. " * 80
    main.write_text(json.dumps(doc, indent="\t"), encoding="utf-8")
    doc = analyze_path(folder).to_json()
    agent = next(a for a in doc["agents"] if a["id"] == "agent_x7")
    assert agent["spawned_by"] == "tool-call-9"
