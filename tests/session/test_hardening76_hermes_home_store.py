"""Hermes Agent keeps every session in its SQLite store ``state.db`` at its home's top (``~/.hermes``,
``$HERMES_HOME``): the store "replaces the earlier per-session JSONL file approach" (its docs' Session
Storage page), so a current home may have no ``sessions/`` folder at all. A named profile (``hermes
profile create coder``) is a home of its own, ``~/.hermes/profiles/coder/``, with its own store,
config and logs.

Before: a home was entered by its ``sessions/`` alone: ``spec-debug analyze ~`` on a home of the
store only said "no transcript files found", ``analyze ~/.hermes`` read ``logs/agent.log`` as a shell
session and no session, and no profile's sessions were read; a store copied into an incident's
folder was passed by. Now the home's store is read, each profile's too, the files of ``sessions/``
the store holds once (from the store), and a Hermes store beside other files is read with them."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

SCHEMA = """
CREATE TABLE sessions (id TEXT PRIMARY KEY, source TEXT NOT NULL, model TEXT, parent_session_id TEXT,
    started_at REAL NOT NULL, ended_at REAL, end_reason TEXT, title TEXT);
CREATE TABLE messages (id INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL REFERENCES sessions(id),
    role TEXT NOT NULL, content TEXT, tool_call_id TEXT, tool_calls TEXT, tool_name TEXT, timestamp REAL NOT NULL);
"""
START = 1793606400.0  # 2026-11-02T08:00:00Z


def _messages(asked: str, command: str, output: dict) -> list[dict]:
    return [{"role": "user", "content": asked},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "call_0", "type": "function", "function": {
                "name": "terminal", "arguments": json.dumps({"command": command})}}]},
            {"role": "tool", "tool_call_id": "call_0", "content": json.dumps(output)}]


def _store(path: Path, sessions: dict[str, list[dict]]) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    for n, (sid, messages) in enumerate(sessions.items()):
        conn.execute("INSERT INTO sessions (id, source, model, started_at) VALUES (?, 'cli', 'hermes-4', ?)",
                     (sid, START + 3600 * n))
        for m, message in enumerate(messages):
            conn.execute("INSERT INTO messages (session_id, role, content, tool_call_id, tool_calls, timestamp) "
                         "VALUES (?, ?, ?, ?, ?, ?)", (sid, message["role"], message["content"],
                                                      message.get("tool_call_id"),
                                                      json.dumps(message["tool_calls"]) if "tool_calls" in message
                                                      else None, START + 3600 * n + m))
    conn.commit()
    conn.close()


LAUNCH = _messages("start the EAGLE-3 server", "python -m sglang.launch_server --model-path m "
                   "--speculative-algorithm EAGLE3", {"output": "torch.OutOfMemoryError: CUDA out of memory.",
                                                      "exit_code": 1, "error": None})
GPUS = _messages("check the GPUs", "nvidia-smi", {"output": "GPU 0: NVIDIA H100", "exit_code": 0, "error": None})
NVCC = _messages("which CUDA is this?", "nvcc --version", {"output": "release 12.8", "exit_code": 0, "error": None})


def _home(tmp_path: Path) -> Path:
    hermes = tmp_path / "home" / ".hermes"
    (hermes / "logs").mkdir(parents=True)
    (hermes / "logs" / "agent.log").write_text("2026-11-02 08:00:00,001 INFO run_agent: session started\n")
    (hermes / "config.yaml").write_text("model:\n  default: hermes-4\n")
    _store(hermes / "state.db", {"20261102_080000_0a1b2c": LAUNCH, "20261102_090000_3d4e5f": GPUS})
    coder = hermes / "profiles" / "coder"
    (coder / "logs").mkdir(parents=True)
    (coder / "logs" / "agent.log").write_text("2026-11-02 10:00:00,001 INFO run_agent: session started\n")
    (coder / "config.yaml").write_text("model:\n  default: hermes-4\n")
    _store(coder / "state.db", {"20261102_100000_6a7b8c": NVCC})
    return hermes


def _read(path: Path) -> tuple[list[tuple[str, str]], list[tuple[str, int]]]:
    a = analyze_path(path)
    return sorted((s["id"], s["format"]) for s in a.sessions), sorted((c.command, c.exit_code) for c in a.commands)


EVERY = ([("20261102_080000_0a1b2c", "openai"), ("20261102_090000_3d4e5f", "openai"),
          ("20261102_100000_6a7b8c", "openai")],
         [("nvcc --version", 0), ("nvidia-smi", 0),
          ("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3", 1)])


def test_a_home_of_the_store_is_read_by_its_store_and_its_profiles(tmp_path: Path) -> None:
    hermes = _home(tmp_path)
    assert _read(hermes) == EVERY  # was its logs/agent.log, a shell session with no command
    assert _read(hermes.parent) == EVERY  # was "no transcript files found"


def test_a_profile_named_alone_is_its_store(tmp_path: Path) -> None:
    coder = _home(tmp_path) / "profiles" / "coder"
    assert _read(coder) == ([("20261102_100000_6a7b8c", "openai")], [("nvcc --version", 0)])  # was its log


def test_a_snapshot_the_store_holds_is_read_once(tmp_path: Path) -> None:
    hermes = _home(tmp_path)
    (hermes / "sessions").mkdir()
    # an earlier release's snapshot of a session the store holds, and one of a session it does not
    (hermes / "sessions" / "session_20261102_090000_3d4e5f.json").write_text(json.dumps(
        {"session_id": "20261102_090000_3d4e5f", "messages": GPUS}))
    (hermes / "sessions" / "session_20261101_070000_9f8e7d.json").write_text(json.dumps(
        {"session_id": "20261101_070000_9f8e7d", "messages": _messages("free the GPU", "pkill -f sglang", {
            "output": "", "exit_code": 0, "error": None})}))
    sessions, commands = _read(hermes)
    assert sessions == [("20261102_080000_0a1b2c", "openai"), ("20261102_090000_3d4e5f", "openai"),
                        ("20261102_100000_6a7b8c", "openai"), ("session_20261101_070000_9f8e7d", "openai")]
    assert [c for c, _ in commands].count("nvidia-smi") == 1


def test_a_store_in_an_incidents_folder_is_read_with_the_rest(tmp_path: Path) -> None:
    bundle = tmp_path / "incident-1102"
    bundle.mkdir()
    _store(bundle / "state.db", {"20261102_080000_0a1b2c": LAUNCH})
    (bundle / "notes.log").write_text("$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    sessions, commands = _read(bundle)
    assert sessions == [("20261102_080000_0a1b2c", "openai"), ("notes", "text")]  # the store was passed by
    assert ("python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3", 1) in commands


def test_an_empty_hermes_home_still_says_so(tmp_path: Path) -> None:
    hermes = tmp_path / ".hermes"
    (hermes / "profiles" / "coder").mkdir(parents=True)
    with pytest.raises(UsageError, match="no transcript files found"):
        analyze_path(hermes)
