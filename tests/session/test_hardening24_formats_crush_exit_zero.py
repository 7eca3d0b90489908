"""Crush's bash tool appends ``Exit code N`` to a run's output only when N is not 0, and ``Command
was aborted before completion`` when it was cut; a run that finished writes its
``BashResponseMetadata{start_time, end_time, output, working_directory}`` (charmbracelet/crush
``internal/llm/tools/bash.go``). So a finished run without either note exited 0. The result below
is the one a real public store holds (dbos-inc/dbos-transact-golang ``.crush/crush.db`` at 38c4ff7f:
``go test -race ./dbos -run '^TestWorkflowAtVersion$' -v``, PASS). Before: no exit code at all."""

from __future__ import annotations

import importlib
import json
import sqlite3

from spec_debug.session import analyze_path

_CRUSH = importlib.import_module("tests.session.test_hardening22_formats_crush")
GO_TEST = "go test -race ./dbos -run '^TestWorkflowAtVersion$' -v"
OUTPUT = ("=== RUN   TestWorkflowAtVersion\n--- PASS: TestWorkflowAtVersion (0.84s)\nPASS\n"
          "ok  \tgithub.com/dbos-inc/dbos-transact-go/dbos\t2.434s\n")


def _add(db, rows):
    conn = sqlite3.connect(db)
    conn.executemany("INSERT INTO messages (id, session_id, role, parts, created_at, updated_at) "
                     "VALUES (?, ?, ?, ?, ?, ?)", [(*r, r[-1]) for r in rows])
    conn.commit()
    conn.close()


def _run(n: int, command: str, content: str, metadata: dict | str) -> list:
    call = ("tool_call", {"id": f"call_{n}", "name": "bash", "type": "function", "finished": True,
                          "input": json.dumps({"command": command, "timeout": 600000})})
    result = ("tool_result", {"tool_call_id": f"call_{n}", "name": "", "content": content, "is_error": False,
                              "metadata": metadata if isinstance(metadata, str) else json.dumps(metadata)})
    return [(f"r{n}a", "ses-2", "assistant", _CRUSH._parts(call), 1754711253 + n),
            (f"r{n}b", "ses-2", "tool", _CRUSH._parts(result), 1754711260 + n)]


def test_a_finished_bash_run_without_an_exit_note_exited_zero(tmp_path):
    db = _CRUSH._store(tmp_path / ".crush")
    finished = {"start_time": 1754711253674, "end_time": 1754711260586, "output": OUTPUT,
                "working_directory": "/Users/max/codeZ/dbos-transact-golang"}
    _add(db, _run(1, GO_TEST, OUTPUT + "\n\n<cwd>/Users/max/codeZ/dbos-transact-golang</cwd>", finished)
         + _run(2, "sleep 900 &", "(no output)", {**finished, "background": True, "shell_id": "001"})
         + _run(3, "make test", "done", {**finished, "exit_code": 2})
         + _run(4, "ls", "a b", ""))
    doc = analyze_path(db).to_json()
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"]}
    assert got[GO_TEST] == (0, False)
    assert got["sleep 900 &"] == (None, False)  # still running in the background
    assert got["make test"] == (2, True)  # a release that writes exit_code
    assert got["ls"] == (None, False)  # no metadata: nothing says it finished
    assert got[_CRUSH.LAUNCH] == (1, True)
