"""Claude Code 1.0.x: two Task sub-agents run at once, their inline sidechain lines interleaved.

CLI 1.0.x wrote a sub-agent's lines inline in the session file (``isSidechain: true``, no
``agentId``): its first line a user message of the Task call's ``prompt`` with ``parentUuid:
null``, each later line's ``parentUuid`` the line it answers (line shape as in a committed 1.0.35
line quoted by a JSONL parser's tests: ``{"parentUuid", "isSidechain": true, "userType":
"external", "cwd", "sessionId", "version": "1.0.35", "type": "user", "message", "uuid",
"timestamp", "toolUseResult"}``). Two Task calls in one turn ran in parallel, so their lines
interleave. Every sidechain line between two trunk lines went to the agent of the *last* Task
call: ``nvidia-smi`` (sub-agent "Check GPU") was reported as run by sub-agent "Check logs", and
the "Check GPU" sub-agent was missing. The uuid chain now says whose line each is.
"""

from __future__ import annotations

import json

from spec_debug.session import analyze_path

BASE = {"userType": "external", "cwd": "/repo", "sessionId": "s-11", "version": "1.0.51"}
MODEL = "claude-sonnet-4-20250514"


def _line(**fields):
    return json.dumps({**BASE, **fields})


def _call(uuid, parent, req, ts, block, sidechain):
    return _line(parentUuid=parent, isSidechain=sidechain, type="assistant", requestId=req, uuid=uuid, timestamp=ts,
                 message={"id": f"m-{uuid}", "type": "message", "role": "assistant", "model": MODEL,
                          "content": [block], "usage": {"input_tokens": 1, "output_tokens": 1}})


def _result(uuid, parent, ts, call, text, is_error, sidechain=True):
    return _line(parentUuid=parent, isSidechain=sidechain, type="user", uuid=uuid, timestamp=ts,
                 message={"role": "user", "content": [{"tool_use_id": call, "type": "tool_result",
                                                       "content": text, "is_error": is_error}]})


def _prompt(uuid, text, ts):
    return _line(parentUuid=None, isSidechain=True, type="user", uuid=uuid, timestamp=ts,
                 message={"role": "user", "content": text})


def _task(call, description, prompt):
    return {"type": "tool_use", "id": call, "name": "Task", "input": {"description": description, "prompt": prompt}}


def _bash(call, command):
    return {"type": "tool_use", "id": call, "name": "Bash", "input": {"command": command}}


def _text(text):
    return {"type": "text", "text": text}


def _session(tmp_path, interleaved=True):
    t = "2025-07-10T10:00:0{}.{}00Z"
    a = [_prompt("a1", "Run nvidia-smi and report", t.format(2, 0)),
         _call("a2", "a1", "r2", t.format(3, 0), _bash("toolu_a1", "nvidia-smi"), True),
         _result("a3", "a2", t.format(4, 0), "toolu_a1",
                 "NVIDIA-SMI has failed because it couldn't communicate with the NVIDIA driver.", True),
         _call("a4", "a3", "r4", t.format(5, 0), _text("The driver is not loaded."), True)]
    b = [_prompt("b1", "Read server.log and report", t.format(2, 1)),
         _call("b2", "b1", "r3", t.format(3, 1), _bash("toolu_b1", "tail -n 50 server.log"), True),
         _result("b3", "b2", t.format(4, 1), "toolu_b1", "accept len: 1.02", False),
         _call("b4", "b3", "r5", t.format(5, 1), _text("Acceptance length is 1.02."), True)]
    side = [x for pair in zip(a, b) for x in pair] if interleaved else a + b
    lines = [
        _line(parentUuid=None, isSidechain=False, type="user", uuid="u1", timestamp=t.format(0, 0),
              message={"role": "user", "content": "why is serving slow"}),
        _call("u2", "u1", "r1", t.format(1, 0), _task("toolu_A", "Check GPU", "Run nvidia-smi and report"), False),
        _call("u3", "u2", "r1", t.format(1, 1), _task("toolu_B", "Check logs", "Read server.log and report"), False),
        *side,
        _result("u4", "u3", t.format(6, 0), "toolu_A", [_text("The driver is not loaded.")], False, sidechain=False),
        _result("u5", "u4", t.format(6, 1), "toolu_B", [_text("Acceptance length is 1.02.")], False, sidechain=False),
    ]
    path = tmp_path / "s-11.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _who_ran(analysis):
    return {c.command: c.agent for c in analysis.commands}


def test_each_parallel_sub_agent_keeps_its_own_commands(tmp_path):
    analysis = _session(tmp_path)
    assert _who_ran(analysis) == {"nvidia-smi": "sidechain-toolu_A", "tail -n 50 server.log": "sidechain-toolu_B"}
    agents = {a["id"]: a for a in analysis.agents}
    assert agents["sidechain-toolu_A"]["failed_calls"] == 1 and agents["sidechain-toolu_A"]["tool_calls"] == 1
    assert agents["sidechain-toolu_B"]["failed_calls"] == 0 and agents["sidechain-toolu_B"]["tool_calls"] == 1
    assert agents["sidechain-toolu_A"]["description"] == "Check GPU"


def test_the_failure_is_the_gpu_agents(tmp_path):
    analysis = _session(tmp_path)
    assert [(e.agent, e.command_seq is not None) for e in analysis.errors] == [("sidechain-toolu_A", True)]


def test_sub_agents_one_after_the_other_without_a_trunk_line_between(tmp_path):
    # before: both went to the last Task call too (no trunk line between the two sidechains)
    analysis = _session(tmp_path, interleaved=False)
    assert _who_ran(analysis) == {"nvidia-smi": "sidechain-toolu_A", "tail -n 50 server.log": "sidechain-toolu_B"}
