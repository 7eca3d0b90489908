"""A Crush store that holds no session (Crush makes ``.crush/crush.db`` when it starts in a project,
before any talk; LarsArtmann/go-filewatcher commits one) is refused in one line when named
(test_hardening24_formats_empty_store). Named by its folder (``analyze .crush``) or by a project whose
one candidate is that store, the error was still 'no transcript files found (none of 1 candidate
file(s) is one)' with a hint listing Claude Code, Codex and OpenAI files."""

from __future__ import annotations

import importlib
import sqlite3

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

_CRUSH = importlib.import_module("tests.session.test_hardening22_formats_crush")


@pytest.mark.parametrize("named", ["proj/.crush", "proj"])
def test_an_empty_store_named_by_its_folder_is_one_line_saying_so(tmp_path, named):
    (tmp_path / "proj" / ".crush").mkdir(parents=True)
    conn = sqlite3.connect(tmp_path / "proj" / ".crush" / "crush.db")
    conn.executescript(_CRUSH.SCHEMA)
    conn.close()
    with pytest.raises(UsageError, match="Crush's session store holds no session") as err:
        analyze_path(tmp_path / named)
    assert "no transcript files found" not in str(err.value)
    assert "crush.db" in str(err.value).splitlines()[0]


def test_a_folder_of_an_empty_store_and_a_log_still_says_what_it_found(tmp_path):
    (tmp_path / "proj" / ".crush").mkdir(parents=True)
    conn = sqlite3.connect(tmp_path / "proj" / ".crush" / "crush.db")
    conn.executescript(_CRUSH.SCHEMA)
    conn.close()
    (tmp_path / "proj" / "run.log").write_text("vllm serve meta-llama/Llama-3.1-8B-Instruct\n", encoding="utf-8")
    doc = analyze_path(tmp_path / "proj").to_json()
    assert [s["id"] for s in doc["sessions"]] == ["run"]


def test_a_damaged_store_named_by_its_folder_says_so(tmp_path):
    """The store named says it is damaged (test_hardening22_reviewformats_crush); named by its folder,
    the scan passed it by and said 'no transcript files found'."""
    db = _CRUSH._store(tmp_path / "proj" / ".crush")
    db.write_bytes(db.read_bytes()[:3000])  # cut short: the header is whole, the pages are not
    with pytest.raises(UsageError, match="a damaged SQLite database") as err:
        analyze_path(tmp_path / "proj" / ".crush")
    assert "integrity_check" in err.value.hint
