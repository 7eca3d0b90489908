"""``sessions[]`` names each session by the title its tool gave it.

A ChatGPT export is one session per conversation, each with its ``title`` (mitkury/
chatgpt-export-parser ``docs/chatgpt-data-export-format.md``; the export is built as
test_hardening12b_chatgpt_sessions.py builds it). The title was read into the session's
source but not written to the analysis JSON, so a script over ``--json`` could not tell the
EAGLE-3 conversation from the holiday plans without opening the export."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spec_debug.cli import app
from spec_debug.session import analyze_path
from tests.session.test_hardening12b_chatgpt_sessions import EAGLE, NCCL, TRIP, _export


def test_the_json_names_each_conversation_by_its_title(tmp_path: Path) -> None:
    out = tmp_path / "a.json"
    result = CliRunner().invoke(app, ["analyze", str(_export(tmp_path)), "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    sessions = json.loads(out.read_text())["sessions"]
    assert [(s["id"], s["title"]) for s in sessions] == [
        (EAGLE, "EAGLE-3 accept length 1.0"), (TRIP, "Weekend in Lisbon"), (NCCL, "NCCL timeout on 8xH100")]


def test_a_format_without_titles_gives_null(tmp_path: Path) -> None:
    log = tmp_path / "gpu01.log"
    log.write_text("$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5a1c)\n", encoding="utf-8")
    out = tmp_path / "a.json"
    result = CliRunner().invoke(app, ["analyze", str(log), "--json", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert json.loads(out.read_text())["sessions"][0]["title"] is None


def test_a_claude_code_session_is_named_by_its_rename_else_by_the_cli(tmp_path: Path) -> None:
    # Claude Code 2.1 writes {"type": "ai-title", "aiTitle"} lines (its own name for the
    # session, updated as it goes) and {"type": "custom-title", "customTitle"} on /rename (the
    # shapes transcript viewers read: rymalia/claude-code-viewer
    # docs/feature_plan_custom_title_agent_name_support.md). The last of each is current.
    sid = "7a1d2e0b-7f80-4a91-b2c3-d4e5f6a7b8c9"

    def session(folder: str, *names: tuple[str, str]) -> Path:
        lines = [{"type": "user", "uuid": "u0", "parentUuid": None, "sessionId": sid, "cwd": "/work",
                  "timestamp": "2026-02-01T10:00:00Z", "isSidechain": False, "version": "2.1.31",
                  "message": {"role": "user", "content": "EAGLE-3 accept len is 1.0 on gpu01"}}]
        lines += [{"type": kind, TITLES[kind]: name, "sessionId": sid} for kind, name in names]
        path = tmp_path / folder / f"{sid}.jsonl"
        path.parent.mkdir()
        path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
        return path

    renamed = session("renamed", ("ai-title", "Debug accept length"), ("custom-title", "gpu01 d2t incident"),
                      ("ai-title", "Debug EAGLE-3 accept length on gpu01"))
    named = session("named", ("ai-title", "Debug accept length"), ("ai-title", "Debug EAGLE-3 accept length on gpu01"))
    assert [s["title"] for s in analyze_path(renamed).sessions] == ["gpu01 d2t incident"]
    a = analyze_path(named)
    assert [s["title"] for s in a.sessions] == ["Debug EAGLE-3 accept length on gpu01"]
    assert a.stats["unknown_types"] == 0


TITLES = {"ai-title": "aiTitle", "custom-title": "customTitle"}
