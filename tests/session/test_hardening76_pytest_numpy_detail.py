"""A pytest run whose test failed on numpy.testing's assertion says what differed.

numpy's ``assert_allclose`` raises "AssertionError: " with its message on the lines below (a
line break first), so pytest's short summary ends on "AssertionError:" and its long report holds
the message on ``E`` lines. Before, the failed test's message was
"test_hidden.py::test_hidden_states_match: AssertionError:" (only tracebacks were read for the
numpy lines); now it carries the tolerance, the mismatch's share and the greatest absolute
difference, as a traceback's does. The output is pytest 9.0.3's with numpy 2's
``assert_allclose``; a torch ``assert_close`` failure in the same run keeps its own reading."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

REPORT = """$ pytest -q test_hidden.py
FF                                                                       [100%]
=================================== FAILURES ===================================
___________________________ test_hidden_states_match ___________________________

    def test_hidden_states_match():
        a = np.zeros(8); b = a.copy(); b[2] = 0.5; b[3] = 0.01
>       np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-3)
E       AssertionError: 
E       Not equal to tolerance rtol=0.001, atol=0.001
E       
E       Mismatched elements: 2 / 8 (25%)
E       Mismatch at indices:
E        [2]: 0.0 (ACTUAL), 0.5 (DESIRED)
E        [3]: 0.0 (ACTUAL), 0.01 (DESIRED)
E       Max absolute difference among violations: 0.5
E       Max relative difference among violations: 1.
E        ACTUAL: array([0., 0., 0., 0., 0., 0., 0., 0.])
E        DESIRED: array([0.  , 0.  , 0.5 , 0.01, 0.  , 0.  , 0.  , 0.  ])

test_hidden.py:6: AssertionError
_______________________________ test_torch_close _______________________________

    def test_torch_close():
        a = torch.zeros(8); b = a.clone(); b[2] = 0.5
>       torch.testing.assert_close(a, b)
E       AssertionError: Tensor-likes are not close!
E       
E       Mismatched elements: 1 / 8 (12.5%)
E       Greatest absolute difference: 0.5 at index (2,) (up to 1e-05 allowed)
E       Greatest relative difference: 1.0 at index (2,) (up to 1.3e-06 allowed)

test_hidden.py:10: AssertionError
=========================== short test summary info ============================
FAILED test_hidden.py::test_hidden_states_match - AssertionError: 
FAILED test_hidden.py::test_torch_close - AssertionError: Tensor-likes are no...
2 failed in 5.57s
"""


def test_numpy_failure_message_says_what_differed():
    [error] = extract_errors(REPORT, exit_code=1)
    assert (error.exception, error.file, error.line) == ("AssertionError", "test_hidden.py", 6)
    assert error.message == ("test_hidden.py::test_hidden_states_match: AssertionError: Not equal to tolerance "
                             "rtol=0.001, atol=0.001; Mismatched elements: 2 / 8 (25%); "
                             "Max absolute difference among violations: 0.5")


def test_copied_log_without_trailing_spaces_reads_the_same():
    # a terminal copy drops the blank E lines' trailing spaces ("E")
    [error] = extract_errors("\n".join(line.rstrip() for line in REPORT.split("\n")), exit_code=1)
    assert error.message.endswith("Mismatched elements: 2 / 8 (25%); Max absolute difference among violations: 0.5")


def test_a_bare_assert_keeps_its_summary():
    out = """=================================== FAILURES ===================================
___________________________________ test_ok ____________________________________

    def test_ok():
>       assert False, ""
E       AssertionError: 
E       assert False

test_t.py:2: AssertionError
=========================== short test summary info ============================
FAILED test_t.py::test_ok - AssertionError: 
1 failed in 0.01s
"""
    [error] = extract_errors(out, exit_code=1)
    assert (error.message, error.line) == ("test_t.py::test_ok: AssertionError:", 2)
