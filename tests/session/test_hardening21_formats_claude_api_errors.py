"""Claude Code writes an assistant line of its own when a model request fails for good
(``isApiErrorMessage: true``, model ``<synthetic>``, ``error``, ``apiErrorStatus``): a 429 rate
limit, a 529 overload, a refused request. The main agent's was a system line and no error of the
session, while Codex's ``error`` events are ``agent_error``s; now it is one too. A sub-agent's is
still left to the agent's status (failed when nothing of its own follows)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "c3d4e5f6-0000-4000-8000-00000000a001"
ENV = {"sessionId": SESSION, "cwd": "/work", "version": "2.0.14", "gitBranch": "main"}
RATE_LIMIT = ('API Error: 429 {"type":"error","error":{"type":"rate_limit_error",'
              '"message":"This request would exceed the rate limit for your organization"}}')


def _line(n: int, kind: str, message: dict, **extra) -> dict:
    return {**ENV, "type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n else None,
            "timestamp": f"2026-10-02T08:00:0{n}.000Z", "message": message, **extra}


def _session(path: Path, *, sidechain: bool = False) -> Path:
    rows = [
        _line(0, "user", {"role": "user", "content": "Is the EAGLE-3 draft loaded on gpu01?"}),
        _line(1, "assistant", {"id": "f7e1", "type": "message", "role": "assistant", "model": "<synthetic>",
                               "stop_reason": "stop_sequence", "content": [{"type": "text", "text": RATE_LIMIT}]},
              isApiErrorMessage=True, error="rate_limit", apiErrorStatus=429, isSidechain=sidechain),
        _line(2, "user", {"role": "user", "content": "continue"}),
        _line(3, "assistant", {"id": "msg_2", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                               "content": [{"type": "text", "text": "Checking the log."}]}),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_the_main_agents_api_error_is_an_agent_error(tmp_path):
    doc = analyze_path(_session(tmp_path / f"{SESSION}.jsonl")).to_json()
    assert [(e["kind"], e["seq"], e["message"][:14]) for e in doc["errors"]] == [("agent_error", 1, "API Error: 429")]
    assert {a["id"]: a["errors"] for a in doc["agents"]} == {"main": 1}


def test_a_sidechain_api_error_is_not_the_main_agents(tmp_path):
    doc = analyze_path(_session(tmp_path / f"{SESSION}.jsonl", sidechain=True)).to_json()
    assert all(e["agent"] != "main" for e in doc["errors"])
