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
