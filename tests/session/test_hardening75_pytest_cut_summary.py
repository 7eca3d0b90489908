"""A pytest failure whose summary line pytest cut keeps its whole message.

pytest cuts each "FAILED node - Type: message" summary line at the terminal's width (80
columns for a captured run): a drafter check with torch.testing.assert_close ended "FAILED
test_eagle3.py::test_logits_match - AssertionError: Tensor-likes are n...", and the error's
message was that cut line. Now it is the report's ``E`` line it began ("AssertionError:
Tensor-likes are not close!") with the mismatch's share and greatest difference from the ``E``
lines under it. The output is pytest 9.0.3's of the test file shown (torch 2.13)."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

REAL = """============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.0.3, pluggy-1.6.0
rootdir: /tmp/pt
collected 2 items

test_eagle3.py .F                                                        [100%]

=================================== FAILURES ===================================
______________________________ test_logits_match _______________________________

    def test_logits_match():
        ours = torch.zeros(2, 4)
        ref = ours.clone(); ref[0, 2] = 0.0123; ref[1, 1] = 0.002; ref[1, 3] = 0.5
>       torch.testing.assert_close(ours, ref, rtol=1e-3, atol=1e-3)
E       AssertionError: Tensor-likes are not close!
E       
E       Mismatched elements: 3 / 8 (37.5%)
E       Greatest absolute difference: 0.5 at index (1, 3) (up to 0.001 allowed)
E       Greatest relative difference: 1.0 at index (0, 2) (up to 0.001 allowed)

test_eagle3.py:9: AssertionError
=========================== short test summary info ============================
FAILED test_eagle3.py::test_logits_match - AssertionError: Tensor-likes are n...
========================= 1 failed, 1 passed in 10.77s =========================
"""

LONG = """=================================== FAILURES ===================================
_______________________________ test_accept_len ________________________________

    def test_accept_len():
>       assert accept_len > 2.0, f"accept length {accept_len} below the 2.0 floor for eagle3 llama-3.1-8b"
E       AssertionError: accept length 1.02 below the 2.0 floor for eagle3 llama-3.1-8b
E       assert 1.02 > 2.0

test_spec.py:14: AssertionError
=========================== short test summary info ============================
FAILED test_spec.py::test_accept_len - AssertionError: accept length 1.02 bel...
============================== 1 failed in 0.51s ===============================
"""


def test_cut_assert_close_summary_read_whole_with_the_mismatch():
    [error] = extract_errors(REAL, exit_code=1)
    assert (error.kind, error.exception, error.file, error.line) == ("test_failure", "AssertionError", "test_eagle3.py", 9)
    assert error.message == ("test_eagle3.py::test_logits_match: AssertionError: Tensor-likes are not close! "
                             "Mismatched elements: 3 / 8 (37.5%); Greatest absolute difference: 0.5 at index (1, 3) "
                             "(up to 0.001 allowed)")


def test_cut_assertion_message_read_whole():
    [error] = extract_errors(LONG, exit_code=1)
    assert error.message == ("test_spec.py::test_accept_len: AssertionError: accept length 1.02 below the 2.0 "
                             "floor for eagle3 llama-3.1-8b")


def test_an_e_line_of_another_message_is_not_used():
    out = LONG.replace("E       AssertionError: accept length 1.02 below", "E       AssertionError: accept rate 0.1 below")
    [error] = extract_errors(out, exit_code=1)
    assert error.message == "test_spec.py::test_accept_len: AssertionError: accept length 1.02 bel..."
