"""Kimi CLI sessions, ``~/.kimi/sessions/<work_dir_hash>/<session_id>/context.jsonl``: OpenAI-shaped
messages with the CLI's own lines (``_system_prompt``, ``_checkpoint``, ``_usage``: MoonshotAI/kimi-cli
``src/kimi_cli/soul/context.py``) and tool results that say how the tool ended in ``<system>`` notes
(``src/kimi_cli/soul/message.py``; the Shell tool's ``Command failed with exit code: N.``,
``src/kimi_cli/tools/shell/__init__.py``). Before: every Shell call read as ``exit_code: null``, not
failed; the bookkeeping lines were unknown types; the session was called ``context``."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

SESSION = "5f0e8d1c-7a2b-4c3d-9e8f-0a1b2c3d4e5f"
LAUNCH = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
          "'{\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\",\"num_speculative_tokens\":3}'")


def _call(n: int, command: str, timeout: int = 60) -> dict:
    return {"role": "assistant", "content": [{"type": "think", "think": "next step"},
                                             {"type": "text", "text": f"Running step {n}."}],
            "tool_calls": [{"type": "function", "id": f"Shell:{n}",
                            "function": {"name": "Shell",
                                         "arguments": json.dumps({"command": command, "timeout": timeout})}}]}


def _result(n: int, *notes: str, output: str = "") -> dict:
    parts = [{"type": "text", "text": f"<system>{note}</system>"} for note in notes]
    if output:
        parts.append({"type": "text", "text": output})
    return {"role": "tool", "content": parts, "tool_call_id": f"Shell:{n}"}


def _session(root: Path, name: str = "context.jsonl") -> Path:
    folder = root / "sessions" / "3b9f2c1d0e4a5b6c7d8e9f0a1b2c3d4e" / SESSION
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        {"role": "_system_prompt", "content": "You are Kimi CLI."},
        {"role": "_checkpoint", "id": 0},
        {"role": "user", "content": [{"type": "text", "text": "why is the eagle3 draft rejected?"}]},
        {"role": "_checkpoint", "id": 1},
        {"role": "user", "content": [{"type": "text", "text": "<system>CHECKPOINT 1</system>"}]},
        _call(0, LAUNCH),
        {"role": "_usage", "token_count": 5120},
        # this release: two notes, then the output
        _result(0, "ERROR", "Command failed with exit code: 1.", output="ValueError: vocab size mismatch\n"),
        _call(1, "nvidia-smi"),
        _result(1, "Command executed successfully.", output="GPU 0: NVIDIA H100\n"),
        _call(2, "sleep 100", timeout=5),
        _result(2, "ERROR: Command killed by timeout (5s)"),  # older releases: one note
        _call(3, "grep -c accept server.log"),
        _result(3, "ERROR: Command failed with exit code: 2.", output="grep: server.log: No such file\n"),
        {"role": "assistant", "content": [{"type": "text", "text": "The draft's vocab does not match."}]},
    ]
    path = folder / name
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_shell_results_give_their_exit_codes_and_failures(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    got = [(c["command"].split()[0], c["exit_code"], c["is_error"]) for c in doc["commands"]]
    assert got == [("vllm", 1, True), ("nvidia-smi", 0, False), ("sleep", None, True), ("grep", 2, True)]


def test_bookkeeping_lines_are_known_and_the_session_is_named_by_its_folder(tmp_path):
    doc = analyze_path(_session(tmp_path)).to_json()
    (session,) = doc["sessions"]
    assert session["id"] == SESSION and session["format"] == "openai"
    assert session["unknown_types"] == 0 and session["broken_json"] == 0
    # the checkpoint told to the model is the CLI's, not a prompt
    assert [p["text"] for p in doc["prompts"]] == ["why is the eagle3 draft rejected?"]


def test_a_rotated_history_keeps_its_number(tmp_path):
    _session(tmp_path)
    _session(tmp_path, "context_1.jsonl")  # the history before a /clear
    doc = analyze_path(tmp_path / "sessions").to_json()
    assert sorted(s["id"] for s in doc["sessions"]) == [SESSION, f"{SESSION}_1"]


def test_a_kimi_home_is_read_from_a_home_folder_scan(tmp_path):
    kimi = tmp_path / ".kimi"
    _session(kimi)
    (kimi / "config.toml").write_text('default_model = "kimi-k2"\n', encoding="utf-8")
    (kimi / "logs").mkdir()
    (kimi / "logs" / "kimi.log").write_text("2026-01-01 INFO ssh gpu01 nvidia-smi\nTraceback (most recent call last):\n")
    doc = analyze_path(tmp_path).to_json()
    assert [s["id"] for s in doc["sessions"]] == [SESSION]


def test_another_writers_tool_messages_are_read_as_before(tmp_path):
    path = tmp_path / "chat.jsonl"
    rows = [{"role": "user", "content": "check"}, _call(0, "nvidia-smi"),
            {"role": "tool", "content": [{"type": "text", "text": "Exit code 3\nboom"}], "tool_call_id": "Shell:0"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    doc = analyze_path(path).to_json()
    assert [(c["exit_code"], c["is_error"]) for c in doc["commands"]] == [(3, True)]


def test_the_think_parts_are_the_agents_thinking(tmp_path):
    from spec_debug.session.events import ReadStats
    from spec_debug.session.formats.common import Cursor
    from spec_debug.session.formats.openai_chat import read

    path = _session(tmp_path)
    events = list(read(path, Cursor(session="s", agent="main", file=str(path)), ReadStats(), array=False))
    thoughts = [e.text for e in events if e.kind == "thinking"]
    assert thoughts == ["next step"] * 4
