"""unittest's verdict through a pipe: `python -m unittest test_draft 2>&1 | tail -3` exits with
tail's 0 (bash(1), "Pipelines"; recorded here: "status=0"), while unittest itself exited 1 (cpython
Lib/unittest/main.py, runTests: ``sys.exit(not self.result.wasSuccessful())``). Its last line,
"FAILED (failures=1, skipped=1)" (Lib/unittest/runner.py, TextTestRunner.run), is printed only on
a failure, as make's "*** ... Error 2" and pytest's "1 failed" are, which already made those runs
failures. Before: the Claude Code call was no failure and the terminal log's run had no error at
all (the tail of three lines holds no traceback); the run of 13 lines was named by its assertion
but was no failed call. The output below is CPython 3.11.7's, recorded with ``tail -13``."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening67_install_folder import _session

RUN = ("Fs.\n"
       "======================================================================\n"
       "FAIL: test_accept (test_draft.Draft.test_accept)\n"
       "----------------------------------------------------------------------\n"
       "Traceback (most recent call last):\n"
       "  File \"/root/spec/test_draft.py\", line 6, in test_accept\n"
       "    self.assertGreater(1.1, 2.0)\n"
       "AssertionError: 1.1 not greater than 2.0\n"
       "\n"
       "----------------------------------------------------------------------\n"
       "Ran 3 tests in 0.000s\n"
       "\n"
       "FAILED (failures=1, skipped=1)")
TAIL_3 = "\n".join(RUN.splitlines()[-3:])
PASSED = "----------------------------------------------------------------------\nRan 3 tests in 0.000s\n\nOK (skipped=1)"

STEPS = [
    ("python -m unittest test_draft 2>&1 | tail -13", RUN),
    ("python3 -m unittest discover -s tests 2>&1 | tail -3", TAIL_3),
    ("python tests/test_draft.py 2>&1 | tail -3", TAIL_3),  # unittest.main() in the file
    ("python -m unittest test_draft 2>&1 | tail -3", PASSED),
    ("tail -3 /tmp/unittest.log", TAIL_3),  # the log read back: the run failed, the reading did not
]


def test_unittests_verdict_through_tail_fails_the_call(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path / "s.jsonl", [(c, out, "/root") for c, out in STEPS]))
    assert [(c.command, c.exit_code, c.is_error) for c in analysis.commands] == [
        (STEPS[0][0], 0, True), (STEPS[1][0], 0, True), (STEPS[2][0], 0, True),
        (STEPS[3][0], 0, False), (STEPS[4][0], 0, False)]
    by_seq = {c.seq: c.command for c in analysis.commands}
    assert [(by_seq[e.command_seq], e.message) for e in analysis.errors] == [
        (STEPS[0][0], "1.1 not greater than 2.0"), (STEPS[1][0], "FAILED (failures=1, skipped=1)"),
        (STEPS[2][0], "FAILED (failures=1, skipped=1)"), (STEPS[4][0], "FAILED (failures=1, skipped=1)")]


def test_a_terminal_log_reads_unittests_verdict_as_the_runs_failure(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("".join(f"root@gpu01:~/spec# {c}\n{out}\n" for c, out in STEPS) + "root@gpu01:~/spec# \n")
    analysis = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in analysis.commands] == [
        (STEPS[0][0], None, True), (STEPS[1][0], None, True), (STEPS[2][0], None, True),
        (STEPS[3][0], None, False), (STEPS[4][0], None, False)]
    by_seq = {c.seq: c.command for c in analysis.commands}
    assert [(by_seq[e.command_seq], e.message) for e in analysis.errors] == [
        (STEPS[0][0], "1.1 not greater than 2.0"), (STEPS[1][0], "FAILED (failures=1, skipped=1)"),
        (STEPS[2][0], "FAILED (failures=1, skipped=1)"), (STEPS[4][0], "FAILED (failures=1, skipped=1)")]
