"""The FAILED-line pattern of 0000424 (a parametrized id with spaces in its brackets) could read a
"[" two ways, as a bracket's start or a lone character; a line it did not match was tried every
way: 2**n steps for n bracket pairs (20 pairs: 1.7 s for one output line, 22: ~7 s)."""

import time

from spec_debug.session.failures import extract_errors

# a FAILED line that is not pytest's summary line ("[..]" groups, then words with no " - ")
_NOT_A_SUMMARY = "FAILED tests/test_spec.py::sweep" + "".join(f"[k{i}]" for i in range(22)) + " see the log above\n"


def test_a_line_with_many_brackets_is_read_at_once():
    # This thread's CPU time, not the wall clock: a loaded machine keeps the worker off the CPU
    # for longer than the bound around well under a millisecond's work.
    start = time.thread_time()
    extract_errors(_NOT_A_SUMMARY + "1 failed in 0.1s\n", exit_code=1)
    assert time.thread_time() - start < 0.5  # ~0.1 ms; the backtracking pattern took ~7 s of CPU


def test_the_id_with_spaces_is_still_read():
    out = "FAILED tests/test_spec.py::test_accept[eagle3 llama 8b-4][tree 2x4] - assert 0.12 > 0.5\n1 failed in 0.1s\n"
    [err] = extract_errors(out, exit_code=1)
    assert (err.kind, err.message) == (
        "test_failure", "tests/test_spec.py::test_accept[eagle3 llama 8b-4][tree 2x4]: assert 0.12 > 0.5")
