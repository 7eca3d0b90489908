"""A home scan of a Goose that keeps JSONL sessions alone in ``~/.local/share/goose/sessions/``
(the releases before its SQLite store; block/goose ``crates/goose/src/session/session_manager.rs``
``import_legacy`` reads these files at a later release's first start). Before, the scan entered
that folder only when ``sessions.db`` was there: no session, no command. The session is the public
Goose session of data_hardening20_formats (SOURCE.md there)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session.sources import discover

REAL = Path(__file__).parent / "data_hardening20_formats" / "goose_session.jsonl"


def test_a_home_scan_finds_goose_jsonl_sessions_without_a_store(tmp_path):
    home = tmp_path / "home"
    sessions = home / ".local" / "share" / "goose" / "sessions"
    sessions.mkdir(parents=True)
    (sessions / "20250513_1.jsonl").write_bytes(REAL.read_bytes())
    (home / ".local" / "share" / "other-app").mkdir()
    (home / ".local" / "share" / "other-app" / "notes.jsonl").write_text('{"role": "user", "content": "x"}\n')
    found = discover(home)
    assert [(s.id, s.format, s.path.name) for s in found] == [("20250513_1", "openai", "20250513_1.jsonl")]
