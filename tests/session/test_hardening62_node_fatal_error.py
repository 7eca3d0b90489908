"""``npm test`` whose test files die on ``require('sql.js')`` before ``npm install``: Node prints
where it was thrown, the error's stack ("Error: Cannot find module 'sql.js'", "Require stack:",
"    at ..." frames) and, last, "Node.js v24.13.1" (nodejs/node src/node_errors.cc, the report of
an uncaught exception). Seen in a real agent log, rocketvish/bearing-research ``transcript.jsonl``
(commit 0513886c53b96665f5425d230a3633a5af7eae37), Anthropic messages one a line, which record no
exit status. Before: no error (a bare "Error: ..." names no exception the patterns knew), the
command not failed. Now the error is Node's. The lines are written in that file's shape (Node's
words, the paths and names mine)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path, failures

from tests.session.messages_runs import write_messages_runs

NODE_DIED = (
    "\n> bench@1.0.0 test\n> node --test src/**/*.test.js\n\n"
    "node:internal/modules/cjs/loader:1451\n  throw err;\n  ^\n\n"
    "Error: Cannot find module 'sql.js'\n"
    "Require stack:\n- C:\\Users\\me\\bench\\src\\db.js\n- C:\\Users\\me\\bench\\src\\reports.test.js\n"
    "    at Module._resolveFilename (node:internal/modules/cjs/loader:1448:15)\n"
    "    at Module._load (node:internal/modules/cjs/loader:1234:25)\n"
    "    at Object.<anonymous> (C:\\Users\\me\\bench\\src\\db.js:1:19) {\n"
    "  code: 'MODULE_NOT_FOUND',\n"
    "  requireStack: [ 'C:\\\\Users\\\\me\\\\bench\\\\src\\\\db.js' ]\n}\n\n"
    "Node.js v24.13.1\n"
    "\u2716 src\\reports.test.js (32.8192ms)\n"
    "\u2139 tests 11\n\u2139 pass 9\n\u2139 fail 2\n"
)
PASSED = "\n> bench@1.0.0 test\n> node --test src/**/*.test.js\n\n\u2139 tests 29\n\u2139 pass 29\n\u2139 fail 0\n"


def _session(tmp_path: Path, calls: list[tuple[str, str]]) -> Path:
    return write_messages_runs(tmp_path / "transcript.jsonl", "Build the task API and run the tests after each task.",
                               calls, said="Now let me run the tests:")


def test_node_died_of_a_missing_module(tmp_path: Path) -> None:
    doc = analyze_path(_session(tmp_path, [
        ("npm test", NODE_DIED),
        ("npm install", "\nadded 84 packages, and audited 85 packages in 673ms\n\nfound 0 vulnerabilities\n"),
        ("npm test", PASSED),
    ])).to_json()
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("npm test", True), ("npm install", False), ("npm test", False)]
    assert [(e["kind"], e["exception"], e["message"]) for e in doc["errors"]] == [
        ("exception", "Error", "Cannot find module 'sql.js'")]


def test_the_error_code_is_kept() -> None:
    """An ES module's import of a package that is not there: the error's code in brackets."""
    output = ("node:internal/modules/esm/resolve:873\n  throw new ERR_MODULE_NOT_FOUND(packageName, fileURLToPath(base), null);\n"
              "        ^\n\nError [ERR_MODULE_NOT_FOUND]: Cannot find package 'express' imported from /w/app/server.mjs\n"
              "    at packageResolve (node:internal/modules/esm/resolve:873:9)\n"
              "    at moduleResolve (node:internal/modules/esm/resolve:946:18) {\n  code: 'ERR_MODULE_NOT_FOUND'\n}\n\n"
              "Node.js v22.3.0\n")
    assert [(e.kind, e.exception, e.message) for e in failures.extract_errors(output, None, False, status_known=False)] \
        == [("exception", "Error", "[ERR_MODULE_NOT_FOUND] Cannot find package 'express' imported from /w/app/server.mjs")]


def test_a_recorded_status_still_decides() -> None:
    """With the status recorded (0: a log of an old crash printed by `cat`), nothing failed; a
    non-zero one keeps its exit_code reading."""
    assert failures.extract_errors(NODE_DIED, 0, False) == []
    assert [e.kind for e in failures.extract_errors(NODE_DIED, 1, False)] == ["exit_code"]


def test_the_version_alone_is_no_failure() -> None:
    """`node --version`-like text with no stack before it is no error."""
    assert failures.extract_errors("Welcome\nNode.js v24.13.1\n", None, False, status_known=False) == []
