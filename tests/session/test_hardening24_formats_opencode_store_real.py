"""A real OpenCode SQLite store from a public repository (data_h24_formats/SOURCE.md): its session,
message and part tables, rebuilt here from their dump. Before, the store was refused ("cannot be
read as Crush's session store or Goose's"): no prompt, no command."""

from __future__ import annotations

import gzip
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path

DUMP = Path(__file__).parent / "data_h24_formats" / "opencode_store_real.sql.gz"


def _store(folder: Path) -> Path:
    folder.mkdir(parents=True)
    db = folder / "opencode.db"
    conn = sqlite3.connect(db)
    conn.executescript(gzip.decompress(DUMP.read_bytes()).decode("utf-8"))
    conn.close()
    return db


def test_a_real_opencode_store_gives_its_prompts_and_commands_with_exit_codes(tmp_path):
    db = _store(tmp_path / "home" / ".local" / "share" / "opencode")
    for named in (db, tmp_path / "home"):
        doc = analyze_path(named).to_json()
        (session,) = doc["sessions"]
        assert (session["id"], session["format"], session["unknown_types"], session["broken_json"]) == (
            "ses_04ca851f7ffevKrKMHW3RsPK1U", "opencode", 0, 0), named
        assert len(doc["prompts"]) == 8 and doc["prompts"][0]["text"].startswith("Read SPEC.md and improve it")
        commands = [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]]
        assert len(commands) == 11 and commands[0] == ("git status && git diff --stat", 0, False)
        assert ("bash /workspace/sync-sessions.sh", 1, True) in commands
        assert session["first_timestamp"] == "2026-07-30T14:05:02.660Z"
