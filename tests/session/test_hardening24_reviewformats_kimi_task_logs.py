"""Kimi Code's manifest (MoonshotAI/kimi-code ``packages/agent-core-v2/docs/wire-manifest.d.ts``) names
record types in words an application's own event log uses too: ``task.started``, ``task.terminated``,
``llm.request``, ``config.update``. Lines of those alone, timed in epoch ms, were read as an empty Kimi
Code session (its records dropped as Kimi's bookkeeping). A wire log holds turn and context records
wherever it is cut (every turn writes ``turn.prompt`` and ``context.append_loop_event``); a log of the
other domains alone is no Kimi session, unless its metadata line says so."""

from __future__ import annotations

import json

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

WORKER_LOG = [
    {"type": "task.started", "time": 1789559572000, "task_id": "t-17", "queue": "embeddings", "worker": "w3"},
    {"type": "llm.request", "time": 1789559572400, "model": "Qwen3-8B", "latency_ms": 412, "status": 200},
    {"type": "task.terminated", "time": 1789559573000, "task_id": "t-17", "status": "ok"},
]


def _write(path, rows):
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_a_worker_log_of_task_and_llm_records_is_no_kimi_code_session(tmp_path):
    # (round 68: named alone, such a log is no transcript at all, no longer an empty Claude Code
    # session of unknown lines: test_hardening68_hook_logs)
    path = _write(tmp_path / "worker.jsonl", WORKER_LOG)
    with pytest.raises(UsageError, match="their types: task.started \\(1\\), llm.request \\(1\\), task.terminated"):
        discover(path)


def test_a_kimi_code_tail_with_its_task_records_is_still_kimi_code(tmp_path):
    rows = [{"type": "task.started", "agentId": "main", "time": 1789559571000,
             "info": {"kind": "bash", "id": "b1", "command": "nvidia-smi"}},
            {"type": "turn.prompt", "agentId": "main", "origin": {"kind": "user"}, "time": 1789559572000,
             "input": [{"type": "text", "text": "is the draft on the right GPU?"}]}]
    path = _write(tmp_path / "tail.jsonl", rows)
    assert discover(path)[0].format == "kimi"
    assert [p["text"] for p in analyze_path(path).to_json()["prompts"]] == ["is the draft on the right GPU?"]


def test_a_wire_log_of_bookkeeping_alone_is_still_kimi_by_its_metadata_line(tmp_path):
    rows = [{"type": "metadata", "protocol_version": "1.5", "created_at": 1789559570000},
            {"type": "task.terminated", "agentId": "main", "time": 1789559571000, "info": {"kind": "bash", "id": "b1"}}]
    path = _write(tmp_path / "wire.jsonl", rows)
    assert discover(path)[0].format == "kimi"
