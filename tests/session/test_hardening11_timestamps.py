"""Times written in different forms order by the instant they name: a folder holding a Claude
Code session (UTC, ``…Z``) and a chat log that a Python harness stamped with the machine's local
offset (``datetime.now().astimezone().isoformat()`` -> ``…+01:00``) gives one timeline in the
order things happened, and shows each time as it was written."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats.instants import instant
from spec_debug.session.postmortem import postmortem_view

SID = "5c7d5c23-0691-4467-b98e-0fb865b4a611"


def _claude_line(uuid: str, parent: str | None, ts: str, kind: str, content) -> str:
    # the envelope Claude Code writes (TRANSCRIPTS.md 1a; daaain/claude-code-log models.py)
    return json.dumps({"type": kind, "uuid": uuid, "parentUuid": parent, "sessionId": SID, "timestamp": ts,
                       "isSidechain": False, "cwd": "/work", "version": "2.1.30",
                       "message": {"role": kind, "content": content}})


def _folder(tmp_path: Path) -> Path:
    folder = tmp_path / "sessions"
    folder.mkdir()
    (folder / f"{SID}.jsonl").write_text("\n".join([
        _claude_line("u1", None, "2026-03-02T08:00:00.000Z", "user", "gpu01 serves 40 tok/s with EAGLE-3; find out why"),
        _claude_line("a1", "u1", "2026-03-02T08:20:00.000Z", "assistant", [
            {"type": "tool_use", "id": "toolu_01", "name": "Bash",
             "input": {"command": "python -c 'import torch; torch.zeros(1).cuda()'"}}]),
        _claude_line("u2", "a1", "2026-03-02T08:20:03.000Z", "user", [
            {"type": "tool_result", "tool_use_id": "toolu_01", "is_error": True,
             "content": "Exit code 1\nTraceback (most recent call last):\n  File \"<string>\", line 1, in <module>\n"
                        "RuntimeError: Found no NVIDIA driver on your system."}]),
    ]) + "\n", encoding="utf-8")
    # 09:10 in Berlin (+01:00 in March) is 08:10 UTC: between the prompt and the failed command
    (folder / "harness_chat.jsonl").write_text("\n".join(json.dumps(m) for m in [
        {"role": "user", "content": "the draft model on gpu02 never loads", "timestamp": "2026-03-02T09:10:00.000000+01:00"},
        {"role": "assistant", "content": "Checking the server log on gpu02.", "timestamp": "2026-03-02T09:10:05.000000+01:00"},
    ]) + "\n", encoding="utf-8")
    return folder


def test_timeline_of_a_folder_orders_rows_by_instant_across_zones(tmp_path: Path) -> None:
    a = analyze_path(_folder(tmp_path))
    timeline = [row for row in postmortem_view(a)["timeline"] if row["kind"] in ("prompt", "error")]
    stamps = [row["timestamp"] for row in timeline]
    assert [row["kind"] for row in timeline] == ["prompt", "prompt", "error"], timeline
    assert stamps[1] == "2026-03-02T09:10:00.000000+01:00"  # shown as written
    assert [instant(s) for s in stamps] == sorted(instant(s) for s in stamps)


def test_instant_reads_each_tool_form() -> None:
    # Claude Code, Codex, OpenHands (naive, as UTC), a harness's offset, asciicast without a fraction
    z = instant("2025-01-27T22:44:56.000Z")
    assert instant("2025-01-27T22:44:56Z") == z
    assert instant("2025-01-27T22:44:56.000000") == z
    assert instant("2025-01-27T23:44:56+01:00") == z
    assert instant("2025-01-27T22:44:56Z") < instant("2025-01-27T22:44:56.500Z")
    assert instant("not a time") is None and instant(None) is None
