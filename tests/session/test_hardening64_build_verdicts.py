"""A terminal log records no exit status: a failed ``mvn compile``, ``./gradlew build`` or ``npx
eslint`` typed at a bash prompt was no failure at all (no error, the command not failed), though
each tool says it failed in its own words near its output's end: Maven's ``[INFO] BUILD FAILURE``
(or, under ``mvn -q``, only ``[ERROR] Failed to execute goal ...``), Gradle's ``FAILURE: Build failed
with an exception.`` and ``BUILD FAILED in 3s``, eslint's ``✖ 3 problems (2 errors, 1 warning)``.
Such an output is now read as a failed call's: its first compiler or lint error and its place.
The outputs have the shape each tool prints; the paths are mine."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

MAVEN_QUIET = """[ERROR] COMPILATION ERROR :
[ERROR] /home/u/bench/src/main/java/com/acme/Main.java:[12,5] cannot find symbol
  symbol:   variable acceptRate
  location: class com.acme.Main
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.11.0:compile (default-compile) on project bench: Compilation failure
[ERROR] /home/u/bench/src/main/java/com/acme/Main.java:[12,5] cannot find symbol
[ERROR] -> [Help 1]
"""

GRADLE_JAVA = """> Task :compileJava FAILED
/home/u/app/src/main/java/com/acme/Main.java:12: error: cannot find symbol
        double r = acceptRate(3, 2);
                   ^
  symbol:   method acceptRate(int,int)
  location: class Main
1 error

FAILURE: Build failed with an exception.

* What went wrong:
Execution failed for task ':compileJava'.
> Compilation failed; see the compiler error output for details.

BUILD FAILED in 1s
"""

ESLINT = """
/home/u/app/src/server.js
   3:7   error    'unused' is assigned a value but never used  no-unused-vars
  20:1   warning  Unexpected console statement                  no-console

\u2716 2 problems (1 error, 1 warning)
"""


def _terminal_log(tmp_path: Path, command: str, output: str) -> Path:
    path = tmp_path / "terminal.log"
    path.write_text(f"root@gpu01:~/app# {command}\n{output.strip(chr(10))}\nroot@gpu01:~/app# echo next\nnext\n",
                    encoding="utf-8")
    return path


@pytest.mark.parametrize("command, output, message, file, line", [
    ("mvn -q compile", MAVEN_QUIET, "[ERROR] /home/u/bench/src/main/java/com/acme/Main.java:[12,5] cannot find symbol",
     "/home/u/bench/src/main/java/com/acme/Main.java", 12),
    ("./gradlew build", GRADLE_JAVA, "/home/u/app/src/main/java/com/acme/Main.java:12: error: cannot find symbol",
     "/home/u/app/src/main/java/com/acme/Main.java", 12),
    ("npx eslint src", ESLINT, "3:7  error  'unused' is assigned a value but never used  no-unused-vars",
     "/home/u/app/src/server.js", 3),
], ids=["maven-quiet", "gradle-javac", "eslint"])
def test_a_build_that_says_it_failed_fails_in_a_terminal_log(tmp_path, command, output, message, file, line):
    a = analyze_path(_terminal_log(tmp_path, command, output))
    assert [(c.command, c.is_error) for c in a.commands] == [(command, True), ("echo next", False)]
    [error] = a.errors
    assert (error.message, error.file, error.line, error.command_seq) == (message, file, line, a.commands[0].seq)


def test_gradle_s_verdict_under_continue():
    out = GRADLE_JAVA.replace("FAILURE: Build failed with an exception.", "FAILURE: Build completed with 2 failures.")
    out = out.replace("BUILD FAILED in 1s\n", "")
    [error] = extract_errors(out, status_known=False)
    assert (error.file, error.line) == ("/home/u/app/src/main/java/com/acme/Main.java", 12)


def test_eslint_warnings_alone_are_no_failure():
    out = ESLINT.replace("   3:7   error    'unused' is assigned a value but never used  no-unused-vars\n", "")
    out = out.replace("2 problems (1 error, 1 warning)", "1 problem (0 errors, 1 warning)")
    assert extract_errors(out, status_known=False) == []


def test_a_verdict_far_above_the_end_is_a_log_s_line():
    # a build's verdict followed by a long stretch of other output is what a log showed, no
    # verdict of this command's
    out = GRADLE_JAVA + "".join(f"[server] step {n} ok\n" for n in range(600))
    assert extract_errors(out, status_known=False) == []
