"""A TypeScript Codex CLI rollout (``{"session": {...}, "items": [...]}``) rewritten by
PowerShell's ``>`` (``Get-Content rollout.json > copy.json``) is UTF-16 with a byte-order mark:
its items were read, but its session header was decoded as UTF-8 and lost (a broken record, no
session time). Now the header is decoded as the items are."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

ROLLOUT = Path(__file__).parent / "data_h26_formats" / "rollout-2025-05-14-5f1a2b3c-7d4e-4a1b-9c2d-0e1f2a3b4c5d.json"


def test_a_utf16_rollout_keeps_its_session_header(tmp_path):
    copy = tmp_path / ROLLOUT.name
    copy.write_bytes(ROLLOUT.read_text().replace("\n", "\r\n").encode("utf-16"))
    (session,) = analyze_path(copy).to_json()["sessions"]
    assert session["format"] == "codex"
    assert session["first_timestamp"] == "2025-05-14T09:12:03.412Z"
    assert session["broken_json"] == 0
