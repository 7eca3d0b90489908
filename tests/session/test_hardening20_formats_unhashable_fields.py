"""A field that should be a name but is an object or a list (a damaged, hand-edited or
future-format line) is read past, never a traceback. Found by mutating the real transcripts in
tests/data (each record's fields set to null, a number, a list or an object, 20-30 trials a file):
a content block ``type``, a Codex ``collab_tool_call`` ``tool``, a Qwen Code ``functionResponse``
``name`` and a Claude Code line ``type`` in a resumed-copy check raised ``TypeError:
unhashable type`` in a set look-up, and the whole analysis stopped."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

DATA = Path(__file__).parent.parent / "data"


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _write(path: Path, records: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_a_claude_content_block_whose_type_is_a_list(tmp_path):
    records = _lines(DATA / "transcripts" / "claude-code" / "representative_messages.jsonl")
    damaged = next(r for r in records if isinstance(r.get("message"), dict)
                   and isinstance(r["message"].get("content"), list) and r["message"]["content"])
    damaged["message"]["content"][0]["type"] = ["tool_use"]
    a = analyze_path(_write(tmp_path / "s.jsonl", records))
    assert a.sessions[0]["format"] == "claude-code" and a.stats["unknown_types"] >= 1


def test_a_codex_collab_call_whose_tool_is_an_object(tmp_path):
    """codex exec --json of CLI 0.155.1 (tests/session/data_hardening18_codex_more/SOURCE.md)."""
    records = _lines(Path(__file__).parent / "data_hardening18_codex_more" / "codex_exec_collab_0.155.1.jsonl")
    for r in records:
        item = r.get("item")
        if isinstance(item, dict) and item.get("type") == "collab_tool_call":
            item["tool"] = {"name": item["tool"]}
    a = analyze_path(_write(tmp_path / "exec.jsonl", records))
    assert a.sessions[0]["format"] == "codex"


def test_a_qwen_function_response_whose_name_is_an_object(tmp_path):
    records = _lines(DATA / "transcripts_hardening19" / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl")
    for r in records:
        if isinstance(r.get("toolCallResult"), dict):
            r["toolCallResult"].pop("callId", None)
        parts = r.get("message", {}).get("parts") if isinstance(r.get("message"), dict) else None
        for part in parts if isinstance(parts, list) else ():
            response = part.get("functionResponse") if isinstance(part, dict) else None
            if isinstance(response, dict):
                response.pop("id", None)  # the name is then what finds the call
                response["name"] = {"tool": response.get("name")}
    a = analyze_path(_write(tmp_path / "8e2f4a6c-1b3d-4f5e-9a7b-2c4d6e8f0a1b.jsonl", records))
    assert a.sessions[0]["format"] == "qwen-code"


def test_a_claude_line_whose_type_is_an_object_in_a_folder_of_resumed_copies(tmp_path):
    """Two sessions of one conversation in a folder are checked for copies line by line."""
    records = _lines(DATA / "transcripts" / "claude-code" / "representative_messages.jsonl")
    _write(tmp_path / "a.jsonl", records)
    damaged = [dict(r) for r in records]
    damaged[1]["type"] = {"user": True}
    _write(tmp_path / "b.jsonl", damaged)
    a = analyze_path(tmp_path)
    assert len(a.sessions) >= 1
