"""A scan of Goose's sessions folder (``~/.local/share/goose/sessions/``, block/goose
``crates/goose/src/session/session_manager.rs``) reads the store's session list once: the scan
reads it to tell the JSONL sessions Goose imported (``import_legacy``), and detection takes that
list instead of querying the store again (before, every scan made the query twice, and a store of
thousands of sessions is no small query). The session is the public Goose session of
data_hardening20_formats (SOURCE.md there), imported as Goose imports it."""

from __future__ import annotations

import importlib
from pathlib import Path

from spec_debug.session import sources
from spec_debug.session.formats import goose_store
from spec_debug.session.sources import discover

_STORE = importlib.import_module("tests.session.test_hardening23_formats_goose_store")


def _counting(monkeypatch) -> list[Path]:
    calls: list[Path] = []
    real = goose_store.sessions

    def sessions(path: Path):
        calls.append(path)
        return real(path)
    monkeypatch.setattr(goose_store, "sessions", sessions)
    return calls


def test_a_home_scan_reads_goose_s_session_list_once(tmp_path, monkeypatch):
    home = tmp_path / "home"
    _STORE._store(home / ".local" / "share" / "goose" / "sessions", legacy=True)
    calls = _counting(monkeypatch)
    found = discover(home)
    assert sorted(s.id for s in found) == ["20250513_1", "20260923_2"]
    assert all(s.goose_store for s in found)
    assert len(calls) == 1


def test_a_folder_scan_of_a_copied_store_reads_its_session_list_once(tmp_path, monkeypatch):
    _STORE._store(tmp_path / "evidence", legacy=True)
    calls = _counting(monkeypatch)
    found = discover(tmp_path / "evidence")
    assert sorted(s.id for s in found) == ["20250513_1", "20260923_2"]
    assert len(calls) == 1


def test_a_store_named_alone_is_still_read_as_goose_s(tmp_path):
    db = _STORE._store(tmp_path / "copy")
    found = discover(db)
    assert [(s.id, s.format, s.goose_store) for s in found] == [("20250513_1", "openai", True),
                                                                ("20260923_2", "openai", True)]
    assert sources.SessionSource(id="x", path=tmp_path / "x.jsonl", format="openai").goose_store is False
