"""Where a failed compile or test run says it failed, when no Python traceback does: the source
file and line of the error a non-Python tool printed.

- A compiler that puts the place first: gcc and clang (``src/kv.c:41:9: error: ...``), tsc
  (``src/a.ts(3,7): error TS2322: ...``, or ``src/a.ts:3:7 - error TS2322: ...`` with
  ``--pretty``; microsoft/TypeScript ``src/compiler/program.ts`` formatDiagnostic).
- rustc, which puts it on the line under its diagnostic: ``error[E0308]: mismatched types`` then
  `` --> src/main.rs:4:18`` (rust-lang/rust ``compiler/rustc_errors/src/emitter.rs``, the
  ``-->`` of the primary span); ruff's default ("full") output since 0.12 the same way, ``F401 [*]
  `os` imported but unused`` then `` --> src/a.py:1:8`` (astral-sh/ruff ``ruff_linter`` snapshots).
- A Go program's panic: ``panic: runtime error: ...``, ``goroutine 1 [running]:``, then each
  frame's function and, indented by a tab, its ``/path/main.go:12 +0x1d`` (golang/go
  ``src/runtime/traceback.go``); the first frame outside the Go runtime's own sources is where it
  panicked.
- jest (and vitest): `` FAIL  src/a.test.ts`` (``getResultHeader``), each failed test after a
  ``●`` (``jest-message-util`` formatResultsErrors) with its stack, ``at Object.<anonymous>
  (src/a.test.ts:14:20)``; its first frame outside ``node_modules`` and Node's own modules is the
  place, else the file the FAIL line names.

- Node: an uncaught error's stack under its line, ``    at Object.<anonymous>
  (/home/u/app/server.js:1:17)`` (V8's stack trace format), the first frame outside
  ``node_modules`` and ``node:`` internals; the JVM's ``Exception in thread "main" ...`` and its
  frames, a tab and ``at com.acme.Main.run(Main.java:14)``, innermost first.
- go test: a failed test's ``t.Errorf`` line, ``    accept_test.go:10: got 1.2 want 2.5``, indented
  under its ``=== RUN`` (golang/go ``src/testing/testing.go``, ``decorate``).

Some of these tools' first line names nothing, and :func:`better_said` gives the line that does:
``go build`` and ``go vet`` print ``# <package>`` before the compiler's ``./main.go:12:5:
undefined: acceptRate`` (golang/go ``src/cmd/go/internal/work/shell.go``, ``reportCmd``: "# " and
the package, then its output), which says no "error"; gcc's driver ends a failed link with
``collect2: error: ld returned 1 exit status`` after the linker's own complaint (``cannot find
-lcudart``, ``undefined reference to `...'``; gcc ``collect2.cc``); pylint starts each module's
messages with ``************* Module app`` and then writes ``app.py:3:0: E0602: Undefined variable
'foo' (undefined-variable)`` (its default ``msg-template``, ``{path}:{line}:{column}: {msg_id}:
{msg} ({symbol})``; pylint-dev/pylint ``tests/reporters/unittest_reporting.py``), of which the
first error (``E``, ``F``) names the failure, else the first message. Such a line (also flake8's
and ruff's ``src/a.py:3:1: F401 ...``) gives its place.

Run only on an output already known to have failed (:func:`failures.extract_errors`'s last
branch), each behind a substring test.
"""

from __future__ import annotations

import re

_PLACE_FIRST = re.compile(r"(?P<file>[^\s:()]+\.[A-Za-z]\w*)(?::(?P<line>\d+)(?::\d+)?|\((?P<pline>\d+)(?:,\d+)?\))"
                          r"(?::| -) (?:fatal )?error\b")
_ARROW = re.compile(r"^[ \t]*--> (?P<file>[^\s:]+):(?P<line>\d+):\d+[ \t]*$", re.M)
_GO_FRAME = re.compile(r"^\t(?P<file>\S+\.go):(?P<line>\d+)(?: \+0x[0-9a-f]+)?[ \t]*$", re.M)
_GO_RUNTIME = "/src/runtime/"
_JEST_FAIL = re.compile(r"^[ \t]*FAIL[ \t]+(?P<file>\S+\.(?:[cm]?[jt]sx?))\b", re.M)
_JEST_FRAME = re.compile(r"^[ \t]+at (?:[^\n(]*\()?(?P<file>[^\s():]+):(?P<line>\d+):\d+\)?[ \t]*$", re.M)
_JEST_BULLET = "\u25cf "
_GO_PLACE = re.compile(r"(?P<file>[^\s:]+\.go):(?P<line>\d+)(?::\d+)?: \S")
_GO_COMPILER_LINE = re.compile(r"^[^\s:#][^\s:]*\.go:\d+(?::\d+)?: [^\n]*\S", re.M)
_GO_TEST_LINE = re.compile(r"^[ \t]+(?P<file>[^\s:]+_test\.go):(?P<line>\d+): ", re.M)
_GO_FAIL = "--- FAIL: "
_PYLINT_MODULE = "************* Module "
_LINT_LINE = re.compile(r"^(?P<file>[^\s:]+\.pyi?):(?P<line>\d+):\d+: (?P<code>[A-Z]\d{3,4})\b[^\n]*", re.M)
_COLLECT2 = "collect2: error: ld returned"
_LINKER_SAID = re.compile(r"^[^\n]*(?:cannot find -l|undefined reference to |multiple definition of )[^\n]*", re.M)


_JS_ERROR = re.compile(r"(?:Uncaught )?[A-Z]?\w*Error(?: \[[A-Z][A-Z0-9_]*\])?: ")
"""A JavaScript error's line, as Node prints one it did not catch (``Error: Cannot find module
'express'``, ``TypeError [ERR_INVALID_ARG_TYPE]: ...``; nodejs/node ``src/node_errors.cc``)."""
_JAVA_UNCAUGHT = "Exception in thread "
_JAVA_FRAME = re.compile(r"^\s+at (?:[\w.$-]*/)*(?P<where>[\w$.<>]+)\((?P<file>[\w$.-]+\.(?:java|kt|scala|groovy)):"
                         r"(?P<line>\d+)\)", re.M)
_JAVA_LIBRARY = ("java.", "javax.", "jdk.", "sun.", "com.sun.", "kotlin.", "scala.", "groovy.", "org.codehaus.groovy.",
                 "org.junit.", "junit.", "org.opentest4j.", "org.assertj.", "org.hamcrest.", "org.testng.",
                 "org.apache.maven.surefire.", "org.gradle.")
"""A JVM stack's frames, innermost first, each ``\tat pkg.Cls.method(File.java:12)``, a module or class
loader before the class since Java 9 (``java.base/java.lang.Integer.parseInt(Integer.java:662)``,
``app//com.acme.Main.run(Main.java:14)``: ``StackTraceElement.toString``); the frames of the JDK,
the JVM languages' runtimes and the test frameworks are where an assertion or a parse threw, not
the code that called them (JUnit's ``org.junit.Assert.fail`` above the test's own line)."""


def java_place(output: str, after: int = 0) -> tuple[str | None, int | None]:
    """``(file, line)`` of the first frame of a JVM stack after ``after`` outside the JDK, the
    runtimes and the test frameworks (:data:`_JAVA_LIBRARY`); the first frame where all are."""
    first = None
    for m in _JAVA_FRAME.finditer(output, after):
        if not m.group("where").startswith(_JAVA_LIBRARY):
            return m.group("file"), int(m.group("line"))
        first = first or m
    return (first.group("file"), int(first.group("line"))) if first else (None, None)


VITEST_POINTER = "\u276f "
JVM_FRAME = "\tat "
_VITEST_FRAME = re.compile(r"^[ \t]*\u276f (?:\S+ )?(?P<file>[^\s():]+):(?P<line>\d+):\d+[ \t]*$", re.M)
"""A frame of the stack vitest prints under a failed test's error: `` ❯ src/a.test.ts:12:20``, or
with the function, `` ❯ rate src/rate.ts:3:9`` (vitest-dev/vitest ``packages/vitest/src/node/error.ts``,
``printStack``: the pointer ``F_POINTER``, the method if any, the path relative to the root and
``line:column``), in place of V8's ``at`` lines. Its summary's `` ❯ src/a.test.ts  (2 tests | 1
failed)`` above the error names no line."""


def thrown_at(output: str, after: int) -> tuple[str | None, int | None]:
    """Where an uncaught JavaScript exception was thrown: the first frame of its stack (``    at
    fn (/app/index.js:3:1)``, V8's stack trace format, or vitest's `` ❯ src/a.test.ts:12:20``,
    :data:`_VITEST_FRAME`) after the exception's line that is no ``node_modules`` or ``node:``
    internals frame; a JVM exception's first frame of its own code (:func:`java_place`);
    ``(None, None)`` for an output with none (a Python exception printed without its traceback)."""
    for frames in (_JEST_FRAME, _VITEST_FRAME):
        for m in frames.finditer(output, after):
            file = m.group("file")
            if "node_modules/" not in file and not file.startswith("node:"):
                return file, int(m.group("line"))
        if VITEST_POINTER not in output:
            break
    if JVM_FRAME in output:
        return java_place(output, after)  # a JVM exception's (a JUnit assertion under surefire)
    return None, None


_MAVEN_SAID = re.compile(r"^\[ERROR\] (?P<file>(?:[A-Za-z]:)?[^\s:\[][^\n:\[]*?\.\w+):\[(?P<line>\d+)(?:,\d+)?\] "
                         r"[^\n]*\S", re.M)
"""A compile error under Maven: the compiler plugin logs each as ``[ERROR]`` and the message's
``file:[line,column] text`` (codehaus-plexus/plexus-compiler ``plexus-compiler-api/.../CompilerMessage.java``,
``toString``), ``[ERROR] /w/src/main/java/a/Main.java:[12,5] cannot find symbol``, once in the build's
output and again under "Failed to execute goal"."""
_MAVEN_GOAL = re.compile(r"^\[ERROR\] Failed to execute goal [^\n]*\S", re.M)
"""Maven's verdict on a failed build, when no compiler message names the place (a test, a
dependency that could not be resolved): ``[ERROR] Failed to execute goal <plugin>:<goal> (<id>) on
project <name>: <why>`` (apache/maven ``maven-core/.../lifecycle/LifecycleExecutionException.java``,
``createMessage``), `` -> [Help 1]`` after it when it fits one line. A failed build's first line is
``[INFO] Scanning for projects...``."""
_KOTLIN_SAID = re.compile(r"^e: (?:file://)?(?P<file>(?:/|[A-Za-z]:)[^\n]*?\.kts?)"
                          r"(?::(?P<line>\d+):\d+ |: \((?P<pline>\d+), \d+\): |: )[^\n]*\S", re.M)
"""A Kotlin compile error as the Gradle plugin prints it: ``e: file:///w/src/main/kotlin/Main.kt:12:5
Unresolved reference: acceptRate`` (JetBrains/kotlin ``GradleStyleMessageRenderer``: "e: " for an
error, the file's URI, ``:line:column`` and a space; before Kotlin 1.7 the path then ``: (12, 5): ``),
above Gradle's ``> Task :app:compileKotlin FAILED`` and "BUILD FAILED"."""
_GRADLE_TEST = re.compile(r"^(?P<test>\S[^\n]*? > [^\n]*?) FAILED[ \t]*\n[ \t]+(?P<exc>[\w$.]+(?:: [^\n]*?)?)"
                          r"(?: at (?P<file>[\w$.-]+\.(?:java|kt|groovy|scala)):(?P<line>\d+))?[ \t]*$", re.M)
"""A failed test in Gradle's console: ``AppTest > testRate() FAILED``, then, indented, the exception
and where the test's own frame is, ``    org.opentest4j.AssertionFailedError at AppTest.java:12``
(the message's first line after the class in newer releases: ``...AssertionFailedError: expected:
<2.5> but was: <1.2> at AppTest.java:12``; gradle/gradle ``ShortExceptionFormatter``, the default
``exceptionFormat``), above ``> Task :test FAILED``'s "There were failing tests"."""
_ESLINT_ERROR = re.compile(r"^(?P<file>(?:/|[A-Za-z]:\\)[^\n]*\S)[ \t]*\n"
                           r"(?:[ \t]+\d+:\d+[ \t]+warning[ \t][^\n]*\n)*"
                           r"[ \t]+(?P<said>(?P<line>\d+):\d+[ \t]+error[ \t]{2,}[^\n]*\S)", re.M)
"""eslint's default (``stylish``) report: each file's absolute path on a line of its own, then a row
per problem, ``  12:5  error  'x' is not defined  no-undef`` (the line and column, ``error`` or
``warning``, the message and the rule, in columns two spaces apart; eslint/eslint
``lib/cli-engine/formatters/stylish.js``); the first ``error`` row under its file (warnings do not
fail the run)."""
_TABLE_GAP = re.compile(r"[ \t]{2,}")


def build_said(output: str) -> tuple[str, str | None, int | None] | None:
    """``(line, file, line_number)`` of the first error a Java or Kotlin build under Maven or
    Gradle (a compile error, a failed test), or eslint, reports in ``output`` (the line as the
    tool wrote it, stripped), where the output's first line is a banner (``[INFO] Scanning for
    projects...``, ``> Task :compileKotlin``) or a file's path (eslint); else None. Each behind a
    substring test."""
    if "[ERROR] " in output:
        if (m := _MAVEN_SAID.search(output)) is not None:
            return m.group(0).strip()[:300], m.group("file"), int(m.group("line"))
        if (m := _MAVEN_GOAL.search(output)) is not None:
            return m.group(0).split(" -> [Help ", 1)[0].strip()[:300], None, None
    if ("\ne: " in output or output.startswith("e: ")) and (m := _KOTLIN_SAID.search(output)) is not None:
        line = m.group("line") or m.group("pline")
        return m.group(0).strip()[:300], m.group("file"), int(line) if line else None
    if " FAILED\n" in output and (m := _GRADLE_TEST.search(output)) is not None:
        said = f"{m.group('test')} FAILED: {m.group('exc')}"
        return said[:300], m.group("file"), int(m.group("line")) if m.group("line") else None
    if "error  " in output and (m := _ESLINT_ERROR.search(output)) is not None:
        said = _TABLE_GAP.sub("  ", m.group("said"))  # its columns two spaces apart, as narrow as they go
        return said[:300], m.group("file"), int(m.group("line"))
    return None


_BUILD_VERDICT = re.compile(r"^(?:\[INFO\] BUILD FAILURE[ \t]*$|\[ERROR\] Failed to execute goal |BUILD FAILED in \d"
                            r"|FAILURE: Build (?:failed with an exception|completed with \d+ failures)\."
                            r"|\u2716 \d+ problems? \([1-9]\d* errors?, "
                            r"|[ \t]*Tests:?[ \t]+[1-9]\d* failed\b|FAIL\t\S|--- FAIL: \S"
                            r"|[^\s()]+(?:\(\d+,\d+\):|:\d+:\d+ -) error TS\d+: )", re.M)
"""A build tool's own verdict that the run failed, on a line of its own near the output's end:
Maven's ``[INFO] BUILD FAILURE`` (apache/maven ``ExecutionEventLogger``), and its ``[ERROR] Failed to
execute goal ...``, all that ``mvn -q`` prints of it (``LifecycleExecutionException``); Gradle's
``FAILURE: Build failed with an exception.`` (``Build completed with 2 failures.`` under
``--continue``) and ``BUILD FAILED in 3s`` (gradle/gradle ``BuildExceptionReporter``,
``BuildResultLogger``); eslint's summary ``✖ 3 problems (2 errors, 1 warning)`` with an error in
it (``stylish.js``; a run with only warnings exits 0). And a test runner's or tsc's: jest's
``Tests:       1 failed, 14 passed, 15 total`` (jestjs/jest ``SummaryReporter``), vitest's
``      Tests  1 failed | 1 passed (2)`` (vitest-dev/vitest reporters ``base.ts``: ``padTitle('Tests')``
and the state string), go test's ``--- FAIL: TestX (0.00s)`` and ``FAIL\tpkg\t0.002s`` (golang/go
``src/testing/testing.go``, ``cmd/go/internal/test``), tsc's ``src/a.ts(3,7): error TS2322: ...``
(``--pretty``: ``src/a.ts:3:7 - error TS2322: ...``; microsoft/TypeScript ``formatDiagnostic``)."""
VERDICT_WORDS = ("FAIL", "failed", "Failed to execute goal", "error TS", "\u2716 ")
_VERDICT_WINDOW = 8000
"""How far from the end a verdict is looked for: Maven repeats the compile errors and its help
lines after it; one further up is a log the command printed (``cat build.log``) before more."""


def build_failed(output: str) -> bool:
    """Where no exit status was recorded (a terminal log), a build, test or lint run says it
    failed (:data:`_BUILD_VERDICT`, near the output's end)."""
    return _BUILD_VERDICT.search(output, max(0, len(output) - _VERDICT_WINDOW)) is not None


def better_said(output: str, head: str) -> str | None:
    """The line that names a failure whose first line (``head``) does not: a Go build's
    compiler error under its ``# package`` line, a link's complaint before collect2's verdict."""
    if head.startswith("# ") and ".go:" in output and (m := _GO_COMPILER_LINE.search(output)) is not None:
        return m.group(0).strip()[:300]
    if head.startswith(_COLLECT2) and (m := _LINKER_SAID.search(output)) is not None:
        return m.group(0).strip()[:300]
    if head.startswith(_PYLINT_MODULE):
        said = None
        for m in _LINT_LINE.finditer(output):
            if m.group("code")[0] in "EF":
                return m.group(0).strip()[:300]  # an error before the conventions and warnings
            said = said or m.group(0).strip()[:300]
        return said
    return None


def failure_place(output: str, message: str, said_at: int | None = None) -> tuple[str | None, int | None]:
    """``(file, line)`` of the error ``message`` names, or ``(None, None)``; ``said_at``: where
    the message's line starts in ``output``, if it was found there."""
    if "error" in message and (m := _PLACE_FIRST.match(message)) is not None:
        return m.group("file"), int(m.group("line") or m.group("pline"))
    if ".py" in message and (m := _LINT_LINE.match(message)) is not None:
        return m.group("file"), int(m.group("line"))
    if ".go:" in message and (m := _GO_PLACE.match(message)) is not None:
        return m.group("file"), int(m.group("line"))
    if ("    at " in output or VITEST_POINTER in output) and _JS_ERROR.match(message) \
            and (at := output.find(message)) >= 0:
        return thrown_at(output, at + len(message))
    if message.startswith(_JAVA_UNCAUGHT) and "at " in output:
        return java_place(output, max(output.find(message), 0))  # the JVM's "\tat pkg.Cls.run(Main.java:14)"
    if message.startswith(_GO_FAIL):
        # its own lines: under its "=== RUN" (go test -v), else under its "--- FAIL" line
        name = message[len(_GO_FAIL):].split(" ", 1)[0]
        run = output.find(f"=== RUN   {name}\n")
        start = run if run >= 0 else max(output.find(message), 0)
        if (m := _GO_TEST_LINE.search(output, start)) is not None:
            return m.group("file"), int(m.group("line"))
        return None, None
    if "-->" in output and message:
        at = said_at if said_at is not None else output.find(message)
        nl = output.find("\n", at) if at >= 0 else -1
        if nl >= 0 and (m := _ARROW.match(output, nl + 1)) is not None:  # on the next line
            return m.group("file"), int(m.group("line"))
    if message.startswith("panic: ") and "goroutine " in output:
        start = output.find("goroutine ")
        for m in _GO_FRAME.finditer(output, start):
            if _GO_RUNTIME not in m.group("file"):
                return m.group("file"), int(m.group("line"))
        return None, None
    if "FAIL" in output and _JEST_BULLET in output and (fail := _JEST_FAIL.search(output)) is not None:
        bullet = output.find(_JEST_BULLET, fail.end())
        if bullet >= 0:
            for m in _JEST_FRAME.finditer(output, bullet):
                file = m.group("file")
                if "node_modules/" not in file and not file.startswith("node:"):
                    return file, int(m.group("line"))
        return fail.group("file"), None
    return None, None
