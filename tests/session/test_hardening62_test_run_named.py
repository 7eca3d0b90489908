"""A failed test or compile run with no exception line was named by its first line ("==> fine",
"Getting extensions ...", "=== RUN   TestX"), seen in real Claude Code 2.1.39 sessions (marot/spotter
test/fixtures/transcripts at 8cc42b0, `mix test`). It is now named by the runner's verdict or the
compiler's coded error."""

import pytest

from spec_debug.session.failures import extract_errors

CASES = [
    ("==> fine\nCompiling 2 files (.ex)\n\n  1) test foo (MyTest)\n     Assertion with == failed\n\n"
     "Finished in 0.1 seconds\n13 tests, 1 failure\n\nRandomized with seed 1234\n", "13 tests, 1 failure"),
    ("============ test session starts ============\ncollected 4 items\n\ntests/x.py F...\n\n"
     "=== 1 failed, 3 passed in 0.1s ===\n", "1 failed, 3 passed in 0.1s"),
    ("Getting extensions ...\n FAIL  src/a.test.ts\n  \u25cf sum \u203a adds\n\nTest Suites: 1 failed, 1 total\n"
     "Tests:       1 failed, 4 passed, 5 total\n", "Tests:       1 failed, 4 passed, 5 total"),
    ("=== RUN   TestX\n    x_test.go:10: got 1 want 2\n--- FAIL: TestX (0.00s)\nFAIL\nFAIL\texample.com/pkg\t0.002s\n",
     "--- FAIL: TestX (0.00s)"),
    ("# pkg\nok  \tother\t0.1s\nFAIL\texample.com/pkg [build failed]\n", "FAIL\texample.com/pkg [build failed]"),
    ("running 1 test\ntest a ... FAILED\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored\n",
     "test result: FAILED. 0 passed; 1 failed; 0 ignored"),
    ("   Compiling foo v0.1.0 (/x)\nerror[E0425]: cannot find value `y` in this scope\n --> src/main.rs:2:13\n\n"
     "error: could not compile `foo` (bin \"foo\") due to 1 previous error\n",
     "error[E0425]: cannot find value `y` in this scope"),
    ("> build\n> tsc\n\nsrc/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.\n",
     "src/a.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'."),
    ("> tsc\n\nsrc/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'.\n\nFound 1 error\n",
     "src/a.ts:3:7 - error TS2322: Type 'string' is not assignable to type 'number'."),
]


@pytest.mark.parametrize("output,named", CASES)
def test_failed_run_is_named_by_its_verdict(output, named):
    assert [(e.kind, e.message) for e in extract_errors(output, exit_code=1)] == [("exit_code", named)]


def test_near_misses():
    # no failure counted: the first line stays the name
    assert extract_errors("==> fine\n13 tests, 0 failures\n", exit_code=1)[0].message == "==> fine"
    # a run that exited 0 has no error at all
    assert extract_errors("=== RUN   TestX\n--- FAIL: TestX (0.00s)\nFAIL\n", exit_code=0) == []
    # pytest's own summary line still gives the test and its assertion
    out = "=== short test summary info ===\nFAILED tests/x.py::test_y - AssertionError: boom\n=== 1 failed in 0.1s ===\n"
    assert [(e.kind, e.message) for e in extract_errors(out, exit_code=1)] == \
        [("test_failure", "tests/x.py::test_y: AssertionError: boom")]
