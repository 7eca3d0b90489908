"""A terminal log records no exit status; a build's, a test run's or a linter's own verdict
("[INFO] BUILD FAILURE", "BUILD FAILED in 3s", "error TS2322") near the end of a command's output
makes it a failed command (failure_places.build_failed). A command that READ a log of such a run
(`tail build.log`, `cat build.log | tail`, `less +G`) did not fail: the build did, when it ran. Its
errors stay the session's, as a server log's traceback does (failures.LOG_CONTENT)."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from spec_debug.session.commands import analysis_json

LOG = """$ ssh gpu01 tail -n 5 /root/app/build.log
[INFO] -------------------------------------------------------
[INFO] BUILD FAILURE
[INFO] -------------------------------------------------------
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure
[ERROR] /root/app/src/main/java/App.java:[12,5] cannot find symbol
$ cat gradle.log | tail -2
FAILURE: Build failed with an exception.
BUILD FAILED in 3s
$ less +G tsc.log
src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.
$ mvn -q compile
[ERROR] /root/app/src/main/java/App.java:[12,5] cannot find symbol
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project app: Compilation failure
$ ls
build.log gradle.log tsc.log
"""


def test_reading_a_failed_builds_log_is_no_failed_command(tmp_path):
    path = tmp_path / "build-session.log"
    path.write_text(LOG)
    data = json.loads(analysis_json(analyze_path(path), redact=False))
    status = {c["command"]: c["is_error"] for c in data["commands"]}
    assert status == {"ssh gpu01 tail -n 5 /root/app/build.log": False, "cat gradle.log | tail -2": False,
                      "less +G tsc.log": False, "mvn -q compile": True, "ls": False}
    # the build's errors stay the session's, the first with its place and its host
    by_seq = {}
    for err in data["errors"]:
        by_seq.setdefault(err["seq"], []).append(err)
    first = by_seq[0][0]
    assert (first["message"], first["file"], first["line"], first["host"]) == (
        "[ERROR] /root/app/src/main/java/App.java:[12,5] cannot find symbol", "/root/app/src/main/java/App.java", 12,
        "gpu01")
    assert sorted(by_seq) == [0, 1, 2, 3]
    assert data["agents"][0]["errors"] == 4
