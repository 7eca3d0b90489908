"""Codex's auto-reviewer judges an approval request in a thread of its own, kept as a rollout beside
the session's (``session_meta.source: {"subagent": {"other": "guardian"}}``, openai/codex
``codex-rs/core/src/guardian/review_session_setup.rs``), whose first message quotes the agent's
history ("The following is the Codex agent history whose request action you are assessing...",
chenhg5/cc-connect issue #1271). A home or folder scan read it as work: a session of its own, or,
naming its parent, a sub-agent of it, and every reading the quoted history held was counted again.
Now such a thread is left out of a scan; named alone it is still read."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

PARENT = "0199a1b2-0000-7000-8000-00000000f596"
GUARDIAN = "0199a1b2-0000-7000-8000-00000000f597"
DECODE = ("Decode batch, #running-req: 4, #token: 100, token usage: 0.01, accept len: 2.10, accept rate: 0.50, "
          "cuda graph: True, gen throughput (token/s): 140.1, #queue-req: 0")


def _line(n: int, kind: str, payload: dict) -> dict:
    return {"timestamp": f"2026-10-05T16:{n:02d}:00.000Z", "type": kind, "payload": payload}


def _write(path: Path, lines: list[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(x) + "\n" for x in lines))


def _home(root: Path, parent_named: bool) -> Path:
    day = root / ".codex" / "sessions" / "2026" / "10" / "05"
    (root / ".codex").mkdir(parents=True)
    (root / ".codex" / "config.toml").write_text('approvals_reviewer = "guardian_subagent"\n')
    _write(day / f"rollout-2026-10-05T16-00-00-{PARENT}.jsonl", [
        _line(0, "session_meta", {"id": PARENT, "cwd": "/work", "originator": "codex_cli_rs", "source": "cli"}),
        _line(1, "response_item", {"type": "message", "role": "user",
                                   "content": [{"type": "input_text", "text": "tail the server log on gpu01"}]}),
        _line(2, "response_item", {"type": "function_call", "name": "exec_command", "call_id": "c1",
                                   "arguments": json.dumps({"cmd": "ssh gpu01 tail -n 5 /var/log/sglang.log"})}),
        _line(2, "response_item", {"type": "function_call_output", "call_id": "c1",
                                   "output": f"Process exited with code 0\nOutput:\n{DECODE}\n"})])
    meta = {"id": GUARDIAN, "cwd": "/work", "originator": "codex_cli_rs",
            "source": {"subagent": {"other": "guardian"}}, "thread_source": "subagent"}
    if parent_named:
        meta["parent_thread_id"] = PARENT
    _write(day / f"rollout-2026-10-05T16-03-00-{GUARDIAN}.jsonl", [
        _line(3, "session_meta", meta),
        _line(3, "response_item", {"type": "message", "role": "user", "content": [{"type": "input_text", "text": (
            "The following is the Codex agent history whose request action you are assessing.\n"
            f">>> TRANSCRIPT START\n[tool exec_command result] {DECODE}\n>>> TRANSCRIPT END\n")}]}),
        _line(4, "response_item", {"type": "message", "role": "assistant", "content": [
            {"type": "output_text", "text": '{"risk_level": "low", "outcome": "allow"}'}]})])
    return root


def test_a_guardian_thread_is_no_session_in_a_scan(tmp_path: Path) -> None:
    for parent_named in (False, True):
        doc = analyze_path(_home(tmp_path / f"home{parent_named}", parent_named)).to_json()
        assert [s["id"] for s in doc["sessions"]] == [f"rollout-2026-10-05T16-00-00-{PARENT}"]
        assert len(doc["agents"]) == 1  # was a second session, or a sub-agent of the parent
        assert [m["value"] for m in doc["metrics"] if m["name"] == "accept_length"] == [2.1]  # was twice


def test_named_alone_it_is_still_read(tmp_path: Path) -> None:
    home = _home(tmp_path / "home", parent_named=True)
    named = home / ".codex" / "sessions" / "2026" / "10" / "05" / f"rollout-2026-10-05T16-03-00-{GUARDIAN}.jsonl"
    doc = analyze_path(named).to_json()
    assert [s["id"] for s in doc["sessions"]] == [f"rollout-2026-10-05T16-03-00-{GUARDIAN}"]
