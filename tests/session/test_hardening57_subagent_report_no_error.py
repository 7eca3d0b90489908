"""A Claude Code sub-agent sent to read the server log reports back: "The server log ends with:
torch.OutOfMemoryError: CUDA out of memory ...". Its own Read of the log already holds that
error, in the sub-agent; the report quoting it was read as a second error of the parent, and the
Agent call as a failed call (a spawn's result has no exit status), where any agent's own prose is
no error source. Now a sub-agent's report holds no error: what it hit stays in its own file. A
spawn the CLI failed (``is_error``) still fails. Layout and shapes: ``<sessionId>/subagents/
agent-<id>.jsonl`` with its ``.meta.json`` ``{agentType, description, toolUseId}`` and the
parent's ``toolUseResult`` ``{status, agentId, content}`` (TRANSCRIPTS.md section 1a, CLI 2.1.x;
daaain/claude-code-log PR #218)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "c3d4e5f6-0000-4000-8000-00000000e5f1"
AGENT = "a5f1e5f1"
OOM = "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB"
REPORT = f"The server log ends with:\n\n{OOM}\n\nThe KV cache fraction is too high for this GPU."


def _write(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in lines), encoding="utf-8")


def _session(root: Path) -> Path:
    env = {"sessionId": SESSION, "cwd": "/w", "version": "2.1.30", "userType": "external"}

    def line(n: int, sidechain: bool = False, **kw) -> dict:
        extra = {"agentId": AGENT} if sidechain else {}
        return {**env, **extra, "isSidechain": sidechain, "uuid": f"{'s' if sidechain else 'u'}{n}",
                "parentUuid": None, "timestamp": f"2026-10-02T08:00:{n:02d}.000Z", **kw}

    trunk = [
        line(1, type="user", message={"role": "user", "content": "why did the server die?"}),
        line(2, type="assistant", message={"id": "m2", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_A", "name": "Agent",
             "input": {"description": "read the log", "prompt": "Read /w/server.log", "subagent_type": "Explore"}}]}),
        line(9, type="user", toolUseResult={"status": "completed", "agentId": AGENT,
                                            "content": [{"type": "text", "text": REPORT}]},
             message={"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_A", "content": [
                 {"type": "text", "text": REPORT},
                 {"type": "text", "text": f"agentId: {AGENT} (use SendMessage to continue)"}]}]}),
    ]
    side = [
        line(3, True, type="user", message={"role": "user", "content": "Read /w/server.log"}),
        line(4, True, type="assistant", message={"id": "s4", "role": "assistant", "content": [
            {"type": "tool_use", "id": "toolu_r", "name": "Bash", "input": {"command": "tail -n 3 /w/server.log"}}]}),
        line(5, True, type="user", message={"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_r", "content": f"Load weight end\n{OOM}",
             "is_error": False}]}),
        line(6, True, type="assistant", message={"id": "s6", "role": "assistant", "content": [
            {"type": "text", "text": REPORT}]}),
    ]
    path = root / f"{SESSION}.jsonl"
    _write(path, trunk)
    _write(root / SESSION / "subagents" / f"agent-{AGENT}.jsonl", side)
    (root / SESSION / "subagents" / f"agent-{AGENT}.meta.json").write_text(json.dumps(
        {"agentType": "Explore", "description": "read the log", "toolUseId": "toolu_A"}), encoding="utf-8")
    return path


def test_a_sub_agents_report_holds_no_second_error(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    assert [(e["agent"], e["kind"]) for e in doc["errors"]] == [(AGENT, "cuda_oom")]
    agents = {a["id"]: (a["tool_calls"], a["failed_calls"], a["errors"]) for a in doc["agents"]}
    assert agents["main"] == (1, 0, 0)
