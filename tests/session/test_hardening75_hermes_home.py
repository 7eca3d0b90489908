"""Hermes Agent keeps its sessions in ``~/.hermes/sessions/`` (``session_<id>.json`` snapshots, the
gateway's ``<id>.jsonl`` transcripts) beside its own ``logs/agent.log``, ``config.yaml``, skills and
memories (NousResearch/hermes-agent ``run_agent.py``, ``gateway/run.py``, ``hermes_constants.py``).

Before: ``spec-debug analyze ~/.hermes`` read its process log as a shell session of its own, and
``spec-debug analyze ~`` passed ``~/.hermes`` by (no transcript found). Now both read the sessions
folder alone."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session.analysis import analyze_path


def _home(tmp_path: Path) -> Path:
    hermes = tmp_path / "home" / ".hermes"
    (hermes / "sessions").mkdir(parents=True)
    (hermes / "logs").mkdir()
    (hermes / "logs" / "agent.log").write_text("2026-11-02 08:00:00,001 INFO run_agent: session started\n")
    (hermes / "config.yaml").write_text("model:\n  default: hermes-4\n")
    (hermes / "sessions" / "session_20261102_080000_0a1b2c.json").write_text(json.dumps({
        "session_id": "20261102_080000_0a1b2c", "messages": [
            {"role": "user", "content": "check the GPU"},
            {"role": "assistant", "content": "", "tool_calls": [{"id": "c0", "type": "function", "function": {
                "name": "terminal", "arguments": json.dumps({"command": "nvidia-smi"})}}]},
            {"role": "tool", "tool_call_id": "c0", "content": json.dumps(
                {"output": "GPU 0: NVIDIA H100", "exit_code": 0, "error": None})}]}))
    return hermes


def test_a_hermes_home_is_read_by_its_sessions_folder(tmp_path: Path) -> None:
    hermes = _home(tmp_path)
    for path in (hermes, hermes.parent):
        a = analyze_path(path)
        assert [(s["id"], s["format"]) for s in a.sessions] == [("session_20261102_080000_0a1b2c", "openai")]
        assert [(c.command, c.exit_code) for c in a.commands] == [("nvidia-smi", 0)]
