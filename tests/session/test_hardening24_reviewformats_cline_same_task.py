"""The Cline CLI 3 links a sub-agent to the ``spawn_agent`` call whose task is its first prompt: the
SDK writes no call id for a sub-agent (cline/cline ``sdk/packages/core/src/extensions/tools/team/
spawn-agent-tool.ts``). Two calls that gave the same task (a check sent again after the first sub-agent
failed) leave no way to tell which sub-agent ran which: before, the sub-agent whose file sorts first was
linked to the first call, whichever it ran, and the other to none. Now neither is linked; a task given
once is still linked."""

from __future__ import annotations

import importlib
import json

from spec_debug.session import analyze_path

_CASE = importlib.import_module("tests.session.test_hardening24_formats_cline_sub_agents")
SESSION, TASK = _CASE.SESSION, _CASE.TASK


def _sent_twice(home):
    """The session of ``_with_sub_agent`` with the spawn call sent again later, and a second
    sub-agent (``agent_a1``, whose file sorts first) that ran the later call."""
    folder = _CASE._with_sub_agent(home)
    main = folder / f"{SESSION}.messages.json"
    doc = json.loads(main.read_text(encoding="utf-8"))
    doc["messages"].append({"id": "msg_asst_9", "role": "assistant", "content": [
        {"type": "tool_use", "id": "tool-call-12", "name": "spawn_agent",
         "input": {"systemPrompt": "You check GPU hosts.", "task": TASK}}]})
    doc["messages"].append({"id": "msg_user_9", "role": "user", "content": [
        {"type": "tool_result", "tool_use_id": "tool-call-12", "content": "gpu-4 has it now."}]})
    main.write_text(json.dumps(doc, indent="\t"), encoding="utf-8")
    later = json.loads((folder / "agent_x7.messages.json").read_text(encoding="utf-8"))
    later["messages"][1]["ts"] = 1777073990000
    (folder / "agent_a1.messages.json").write_text(json.dumps(later, indent="\t"), encoding="utf-8")
    return folder


def test_two_calls_of_the_same_task_link_no_sub_agent_to_a_call_it_may_not_have_run(tmp_path):
    folder = _sent_twice(tmp_path / "home")
    doc = analyze_path(folder).to_json()
    linked = {a["id"]: a["spawned_by"] for a in doc["agents"] if a["id"] != "main"}
    assert linked == {"agent_a1": None, "agent_x7": None}
    assert sorted(c["agent"] for c in doc["commands"]) == ["agent_a1", "agent_x7", "main"]


def test_a_task_given_once_is_still_linked(tmp_path):
    folder = _CASE._with_sub_agent(tmp_path / "home")
    doc = analyze_path(folder).to_json()
    assert next(a for a in doc["agents"] if a["id"] == "agent_x7")["spawned_by"] == "tool-call-9"
