"""OpenCode's SQLite store, ``~/.local/share/opencode/opencode.db`` (anomalyco/opencode, formerly
sst/opencode: ``packages/opencode/src/storage/db.ts`` names it, ``src/session/session.sql.ts`` its
``session``, ``message`` and ``part`` tables, ``data`` the JSON of a message or part without its ids).
Its first start copies the JSON storage into the store as ``src/storage/json-migration.ts`` does here
and leaves the files. A task call's sub-agent is a session whose ``parent_id`` is the caller's, its id
in the call's ``state.metadata.sessionId`` (``src/tool/task.ts``). Before: the store named was refused
as "cannot be read as Crush's session store or Goose's", a scan passed it by, and a home scan read
only what the storage still held (nothing of the sessions since the store)."""

from __future__ import annotations

import importlib
import json
import sqlite3
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.sources import discover

_FILES = importlib.import_module("tests.session.test_hardening21_formats_opencode")
SESSION, PROJECT, LAUNCH = _FILES.SESSION, _FILES.PROJECT, _FILES.LAUNCH
CHILD = "ses_6a1b2c3d5ffeSubAgent00001"
SCHEMA = """
CREATE TABLE project (id text PRIMARY KEY, worktree text NOT NULL, vcs text, name text, time_created integer NOT NULL,
    time_updated integer NOT NULL);
CREATE TABLE session (id text PRIMARY KEY, project_id text NOT NULL REFERENCES project(id) ON DELETE CASCADE,
    workspace_id text, parent_id text, slug text NOT NULL, directory text NOT NULL, path text, title text NOT NULL,
    version text NOT NULL, share_url text, cost real DEFAULT 0 NOT NULL, time_created integer NOT NULL,
    time_updated integer NOT NULL, time_compacting integer, time_archived integer);
CREATE TABLE message (id text PRIMARY KEY, session_id text NOT NULL REFERENCES session(id) ON DELETE CASCADE,
    time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE part (id text PRIMARY KEY, message_id text NOT NULL REFERENCES message(id) ON DELETE CASCADE,
    session_id text NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL, data text NOT NULL);
CREATE TABLE todo (session_id text NOT NULL, content text NOT NULL, status text NOT NULL, priority text NOT NULL,
    position integer NOT NULL, time_created integer NOT NULL, time_updated integer NOT NULL);
"""


def _migrate(storage: Path, db: Path) -> None:
    """What json-migration.ts does: ids from the file paths, ``data`` the rest of each file."""
    conn = sqlite3.connect(db)
    conn.executescript(SCHEMA)
    conn.execute("INSERT INTO project VALUES (?, '/work/spec', 'git', NULL, 1767812640000, 1767812640000)", (PROJECT,))
    for file in sorted((storage / "session").glob("*/*.json")):
        data = json.loads(file.read_text())
        conn.execute("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, "
                     "time_updated) VALUES (?, ?, ?, '', ?, ?, ?, ?, ?)",
                     (file.stem, file.parent.name, data.get("parentID"), data["directory"], data["title"],
                      data["version"], data["time"]["created"], data["time"]["updated"]))
    sessions = {}
    for file in sorted((storage / "message").glob("*/*.json")):
        data = json.loads(file.read_text())
        sessions[file.stem] = file.parent.name
        for key in ("id", "sessionID"):
            data.pop(key, None)
        conn.execute("INSERT INTO message VALUES (?, ?, ?, ?, ?)", (file.stem, file.parent.name,
                     data["time"]["created"], data["time"]["created"], json.dumps(data)))
    for file in sorted((storage / "part").glob("*/*.json")):
        try:
            data = json.loads(file.read_text())
        except ValueError:
            continue  # readJson fails: the migration lists it as an error and goes on
        for key in ("id", "sessionID", "messageID"):
            data.pop(key, None)
        conn.execute("INSERT INTO part VALUES (?, ?, ?, 0, 0, ?)", (file.stem, file.parent.name,
                     sessions[file.parent.name], json.dumps(data)))
    conn.commit()
    conn.close()


def _add_sub_agent(db: Path) -> None:
    """A task call in the session and the sub-agent session it started, written after the migration."""
    conn = sqlite3.connect(db)
    conn.execute("INSERT INTO session (id, project_id, parent_id, slug, directory, title, version, time_created, "
                 "time_updated) VALUES (?, ?, ?, 'calm-wolf', '/work/spec', 'Check the draft (@general subagent)', "
                 "'1.2.4', 1767812660000, 1767812670000)", (CHILD, PROJECT, SESSION))
    task = {"type": "tool", "callID": "toolu_task", "tool": "task", "state": {
        "status": "completed", "input": {"description": "Check the draft", "prompt": "check it",
                                         "subagent_type": "general"},
        "output": f"task_id: {CHILD}", "title": "Check the draft",
        "metadata": {"sessionId": CHILD}, "time": {"start": 1767812659000, "end": 1767812671000}}}
    conn.execute("INSERT INTO message VALUES ('msg_b03', ?, 1767812659000, 1767812659000, ?)",
                 (SESSION, json.dumps({"role": "assistant", "time": {"created": 1767812659000}})))
    conn.execute("INSERT INTO part VALUES ('prt_20', 'msg_b03', ?, 0, 0, ?)", (SESSION, json.dumps(task)))
    conn.execute("INSERT INTO message VALUES ('msg_c01', ?, 1767812661000, 1767812661000, ?)",
                 (CHILD, json.dumps({"role": "assistant", "time": {"created": 1767812661000}})))
    bash = _FILES._bash(21, "msg_c01", "ssh gpu-3 nvidia-smi", 255, "ssh: connect to host gpu-3 port 22: refused")
    for key in ("id", "sessionID", "messageID"):
        bash.pop(key)
    conn.execute("INSERT INTO part VALUES ('prt_21', 'msg_c01', ?, 0, 0, ?)", (CHILD, json.dumps(bash)))
    conn.execute("INSERT INTO part VALUES ('prt_22', 'msg_c01', ?, 0, 0, '{broken')", (CHILD,))
    conn.commit()
    conn.close()


def _home(tmp_path: Path) -> tuple[Path, Path]:
    home = tmp_path / "home"
    data = home / ".local" / "share" / "opencode"
    data.mkdir(parents=True)
    storage = _FILES._storage(data.parent)  # <data>/storage, left in place by the migration
    _migrate(storage, data / "opencode.db")
    _add_sub_agent(data / "opencode.db")
    return home, data / "opencode.db"


def _check(doc: dict) -> None:
    (session,) = doc["sessions"]
    assert (session["id"], session["format"]) == (SESSION, "opencode")
    assert [(c["command"], c["exit_code"], c["is_error"], c["agent"]) for c in doc["commands"]] == [
        (LAUNCH, 1, True, "main"), ("nvidia-smi", 0, False, "main"), ("sleep 600", None, True, "main"),
        ("ssh gpu-3 nvidia-smi", 255, True, CHILD)]
    assert [c["host"] for c in doc["commands"]][-1] == "gpu-3"
    assert [p["text"] for p in doc["prompts"]] == ["why is the accept length 1?"]
    agent = next(a for a in doc["agents"] if a["id"] == CHILD)
    assert (agent["parent"], agent["spawned_by"]) == ("main", "toolu_task")
    assert session["broken_json"] == 1


def test_the_store_named_gives_its_sessions_with_sub_agents_linked(tmp_path):
    _, db = _home(tmp_path)
    _check(analyze_path(db).to_json())


def test_a_home_scan_reads_the_store_once_and_not_the_storage_it_copied(tmp_path):
    home, db = _home(tmp_path)
    assert [(s.id, s.path) for s in discover(home)] == [(SESSION, db)]
    _check(analyze_path(home).to_json())


def test_a_scan_of_the_data_folder_reads_the_store_and_what_storage_has_alone(tmp_path):
    home, db = _home(tmp_path)
    extra = db.parent / "storage" / "session" / PROJECT / "ses_6a1b2c3d6ffeOnlyInFiles001.json"
    extra.write_text(json.dumps({"id": extra.stem, "version": "0.15.8", "projectID": PROJECT, "directory": "/w",
                                 "title": "old", "time": {"created": 1767800000000, "updated": 1767800000000}}))
    found = discover(db.parent)
    assert sorted((s.id, s.path.name) for s in found) == [(SESSION, "opencode.db"), (extra.stem, extra.name)]


def test_a_store_whose_session_table_has_no_time_or_title_is_still_read(tmp_path):
    """A schema without ``time_created``/``title`` on its session table (a copy trimmed by hand, a
    release of another shape): the sessions are read in row order. Before, the query failed and the
    store was refused as no OpenCode store."""
    _, db = _home(tmp_path)
    conn = sqlite3.connect(db)
    conn.executescript("CREATE TABLE s2 AS SELECT id, project_id, parent_id FROM session; DROP TABLE session; "
                       "ALTER TABLE s2 RENAME TO session;")
    conn.close()
    doc = analyze_path(db).to_json()
    assert [s["id"] for s in doc["sessions"]] == [SESSION]
    assert len(doc["commands"]) == 4
