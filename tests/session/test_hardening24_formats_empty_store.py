"""A session store named that holds no session: Crush makes ``.crush/crush.db`` (its tables, no row)
when it starts in a project, and such copies are committed to public repositories (LarsArtmann/
go-filewatcher ``.crush/crush.db`` at c20634ed: ``sessions`` and ``messages`` empty). Before, the
error was "no transcript files found (none of 1 candidate file(s) is one)" with a hint listing
Claude Code, Codex and OpenAI chat files; now one line says whose store it is and that it is empty."""

from __future__ import annotations

import importlib
import sqlite3

import pytest

from spec_debug.errors import UsageError
from spec_debug.session import analyze_path

_CRUSH = importlib.import_module("tests.session.test_hardening22_formats_crush")
_GOOSE = importlib.import_module("tests.session.test_hardening23_formats_goose_store")
_OPENCODE = importlib.import_module("tests.session.test_hardening24_formats_opencode_store")


@pytest.mark.parametrize("name, schema, store", [("Crush", _CRUSH.SCHEMA, "crush.db"),
                                                 ("Goose", _GOOSE.SCHEMA, "sessions.db"),
                                                 ("OpenCode", _OPENCODE.SCHEMA, "opencode.db")])
def test_an_empty_store_named_is_one_line_saying_so(tmp_path, name, schema, store):
    db = tmp_path / store
    conn = sqlite3.connect(db)
    conn.executescript(schema)
    conn.close()
    with pytest.raises(UsageError, match=f"{name}'s session store holds no session") as err:
        analyze_path(db)
    assert "no transcript files found" not in str(err.value) and store in str(err.value).splitlines()[0]
