"""A Claude Code sub-agent file that replays the trunk's messages (a side chain rewrites the
parent's messages into its own file: ccusage/ccusage issue #913 and PR #1155, rajbos/
ai-engineering-fluency PR #1632) counts the trunk's commands and errors once, under the trunk;
the sub-agent's own work still counts as its own."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SID = "7a3e0000-0000-4000-8000-0000000000b1"
NO_DRIVER = ("Exit code 1\nTraceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
             "RuntimeError: Found no NVIDIA driver on your system.")


def _line(uuid: str, parent: str | None, ts: str, kind: str, content, *, agent: str | None = None,
          request: str | None = None, msg_id: str | None = None, **extra) -> str:
    # the envelope of CLI 2.1.x lines (daaain/claude-code-log test/test_data/minimal_showcase)
    obj = {"type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": agent is not None,
           "userType": "external", "cwd": "/work", "sessionId": SID, "version": "2.1.173", "timestamp": ts}
    if agent:
        obj["agentId"] = agent
    message = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": msg_id or f"msg_{uuid}", "type": "message", "model": "claude-opus-4-5", **message}
        obj["requestId"] = request or f"req_{uuid}"
    obj["message"] = message
    obj.update(extra)
    return json.dumps(obj)


_PROBE = [{"type": "tool_use", "id": "toolu_01probe", "name": "Bash",
           "input": {"command": "python -c 'import torch; torch.zeros(1).cuda()'", "description": "probe CUDA"}}]
_PROBE_RESULT = [{"type": "tool_result", "tool_use_id": "toolu_01probe", "is_error": True, "content": NO_DRIVER}]


def _session(tmp_path: Path) -> Path:
    trunk = tmp_path / f"{SID}.jsonl"
    trunk.write_text("\n".join([
        _line("u1", None, "2026-03-02T08:00:00.000Z", "user", "the EAGLE-3 server on gpu01 will not start"),
        _line("a1", "u1", "2026-03-02T08:00:05.000Z", "assistant", _PROBE, msg_id="msg_01probe"),
        _line("u2", "a1", "2026-03-02T08:00:07.000Z", "user", _PROBE_RESULT),
        _line("a2", "u2", "2026-03-02T08:00:09.000Z", "assistant", [
            {"type": "tool_use", "id": "toolu_02agent", "name": "Agent",
             "input": {"description": "check the driver", "prompt": "Find out why CUDA sees no driver.",
                       "subagent_type": "general-purpose"}}]),
        _line("u3", "a2", "2026-03-02T08:01:30.000Z", "user", [
            {"type": "tool_result", "tool_use_id": "toolu_02agent", "content": "The nvidia module is not loaded."}],
            toolUseResult={"agentId": "side1", "status": "completed"}),
    ]) + "\n", encoding="utf-8")
    folder = tmp_path / SID / "subagents"
    folder.mkdir(parents=True)
    (folder / "agent-side1.meta.json").write_text(json.dumps(
        {"agentType": "general-purpose", "description": "check the driver", "toolUseId": "toolu_02agent"}))
    (folder / "agent-side1.jsonl").write_text("\n".join([
        # the trunk's probe and its failure, replayed under the same message id, a new request id
        _line("r1", None, "2026-03-02T08:00:10.000Z", "assistant", _PROBE, agent="side1", msg_id="msg_01probe",
              request="req_replay"),
        _line("r2", "r1", "2026-03-02T08:00:10.000Z", "user", _PROBE_RESULT, agent="side1"),
        _line("s1", "r2", "2026-03-02T08:00:12.000Z", "user", "Find out why CUDA sees no driver.", agent="side1"),
        _line("s2", "s1", "2026-03-02T08:00:20.000Z", "assistant", [
            {"type": "tool_use", "id": "toolu_03lsmod", "name": "Bash", "input": {"command": "lsmod | grep nvidia"}}],
            agent="side1"),
        _line("s3", "s2", "2026-03-02T08:00:21.000Z", "user", [
            {"type": "tool_result", "tool_use_id": "toolu_03lsmod", "is_error": True, "content": "Exit code 1\n"}],
            agent="side1"),
    ]) + "\n", encoding="utf-8")
    return trunk


def test_a_sub_agent_replaying_the_trunk_does_not_count_its_commands_twice(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path))
    commands = [(c.agent, c.command) for c in a.commands]
    assert commands == [("main", "python -c 'import torch; torch.zeros(1).cuda()'"),
                        ("side1", "lsmod | grep nvidia")], commands
    no_driver = [e for e in a.errors if "NVIDIA driver" in e.message]
    assert [e.agent for e in no_driver] == ["main"], no_driver
    side = next(x for x in a.agents if x["id"] == "side1")
    assert side["tool_calls"] == 1 and side["parent"] == "main"


def test_a_resumed_session_file_with_two_session_ids_is_one_session(tmp_path: Path) -> None:
    """``--resume``/``--continue`` keep writing one file whose records before the resume carry
    the old ``sessionId`` and those after it the new one (siteboon/claudecodeui issue #1022:
    filtering by one id cut the history at the resume). The lines anthropics/claude-code issue
    #30802 misfiles look the same, so every line of the file stays the file's."""
    trunk = _session(tmp_path)
    resumed = json.loads(_line("u9", "u3", "2026-03-02T09:00:00.000Z", "user", "still no driver after the reboot"))
    resumed["sessionId"] = "9c1d0000-0000-4000-8000-0000000000c2"
    with trunk.open("a", encoding="utf-8") as f:
        f.write(json.dumps(resumed) + "\n")
    a = analyze_path(trunk)
    assert [s["id"] for s in a.sessions] == [SID]
    assert [p.text for p in a.prompts if p.agent == "main"][-1] == "still no driver after the reboot"
