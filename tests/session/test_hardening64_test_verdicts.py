"""A terminal log records no exit status: a failed ``npx jest``, ``npx vitest run``, ``go test``
or ``npx tsc`` typed at a bash prompt was no failure (no error, the command not failed), though
each says it failed: jest's ``Tests:       1 failed, 14 passed, 15 total``, vitest's ``      Tests
1 failed | 1 passed (2)``, go test's ``--- FAIL: TestAccept (0.00s)`` and ``FAIL\\tpkg\\t0.002s``,
tsc's ``src/a.ts(3,7): error TS2322: ...``. Such an output is now read as a failed call's: the
runner's verdict or the compiler's line, and the place its stack or line gives. The outputs have
the shape each tool prints (the sources are named in :mod:`spec_debug.session.failure_places`);
the tests are mine."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

JEST = """ FAIL  src/utils/validation.test.ts
  \u25cf Validation \u203a should validate email format

    expect(received).toBe(expected) // Object.is equality

    Expected: true
    Received: false

      at Object.<anonymous> (src/utils/validation.test.ts:14:20)

Test Suites: 1 failed, 2 passed, 3 total
Tests:       1 failed, 14 passed, 15 total
Snapshots:   0 total
Time:        1.2 s
"""

VITEST_SUMMARY = """ \u276f src/accept.test.ts  (2 tests | 1 failed) 5ms

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)
   Start at  10:42:01
   Duration  312ms
"""

GO_TEST = """--- FAIL: TestAccept (0.00s)
    accept_test.go:10: got 1.2 want 2.5
FAIL
FAIL\tgithub.com/acme/bench\t0.002s
"""

TSC = "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n"


@pytest.mark.parametrize("output, message, file, line", [
    (JEST, "Tests:       1 failed, 14 passed, 15 total", "src/utils/validation.test.ts", 14),
    (VITEST_SUMMARY, "Tests  1 failed | 1 passed (2)", None, None),
    (GO_TEST, "--- FAIL: TestAccept (0.00s)", "accept_test.go", 10),
    (TSC, "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.", "src/a.ts", 3),
], ids=["jest", "vitest", "go-test", "tsc"])
def test_a_runner_s_verdict_is_a_failure_with_no_status(output, message, file, line):
    [error] = extract_errors(output, status_known=False)
    assert (error.kind, error.message, error.file, error.line) == ("tool_error", message, file, line)


def test_a_failed_jest_run_fails_its_command_in_a_terminal_log(tmp_path: Path) -> None:
    path = tmp_path / "terminal.log"
    path.write_text(f"me@laptop:~/app$ npx jest\n{JEST}me@laptop:~/app$ echo next\nnext\n", encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.is_error) for c in a.commands] == [("npx jest", True), ("echo next", False)]
    assert [(e.file, e.line) for e in a.errors] == [("src/utils/validation.test.ts", 14)]


def test_a_passing_run_is_no_failure():
    out = "Test Suites: 3 passed, 3 total\nTests:       15 passed, 15 total\nok  \tgithub.com/acme/bench\t0.002s\n"
    assert extract_errors(out, status_known=False) == []
