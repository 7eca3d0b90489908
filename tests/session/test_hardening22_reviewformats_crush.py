"""Crush's store read as evidence (review of 55f7477, e86771a): a copy whose ``-wal`` came with it
but not its ``-shm`` (``cp crush.db crush.db-wal``: a running Crush keeps both, a crashed one leaves
the WAL) was opened ``mode=ro`` and SQLite created ``crush.db-shm`` beside the evidence; opened
``immutable`` instead it would leave out the sessions the WAL holds. A locked or damaged store named
was refused as "cannot be read as Crush's session store" with a hint to name Crush's store, the
one that was named."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path
from tests.session.test_hardening22_formats_crush import _store


def _scratch_left() -> list[str]:
    return sorted(p.name for p in Path(tempfile.gettempdir()).glob("spec-debug-crush-*"))


def test_a_copy_with_its_wal_is_read_whole_without_files_appearing_beside_it(tmp_path):
    db = _store(tmp_path / "live")
    conn = sqlite3.connect(db)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("INSERT INTO sessions (id, title, updated_at, created_at) VALUES ('ses-3', 'late', 1, 1790153900)")
    conn.commit()  # in the WAL, not yet in crush.db
    evidence = tmp_path / "evidence"
    evidence.mkdir()
    shutil.copyfile(db, evidence / "crush.db")
    shutil.copyfile(f"{db}-wal", evidence / "crush.db-wal")
    conn.close()
    before = {p.name: p.read_bytes() for p in evidence.iterdir()}
    scratch = _scratch_left()
    doc = analyze_path(evidence / "crush.db").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["ses-1", "ses-2", "ses-3"]
    assert {p.name: p.read_bytes() for p in evidence.iterdir()} == before  # no -shm, nothing changed
    assert _scratch_left() == scratch  # the private view is gone


def test_a_locked_store_is_one_line_that_says_so(tmp_path):
    db = _store(tmp_path / ".crush")
    writer = sqlite3.connect(db, isolation_level=None)
    writer.execute("BEGIN EXCLUSIVE")  # a writer mid-transaction: its -journal is beside the store
    writer.execute("INSERT INTO sessions (id, title, updated_at, created_at) VALUES ('ses-9', 'w', 1, 1)")
    try:
        with pytest.raises(UsageError, match="the SQLite database is locked by another program") as err:
            analyze_path(db)
        assert "copy it" in err.value.hint
    finally:
        writer.execute("ROLLBACK")
        writer.close()


def test_a_damaged_store_is_one_line_that_says_so(tmp_path):
    db = _store(tmp_path / ".crush")
    db.write_bytes(db.read_bytes()[:3000])  # cut short: the header is whole, the pages are not
    with pytest.raises(UsageError, match="a damaged SQLite database") as err:
        analyze_path(db)
    assert "integrity_check" in err.value.hint
