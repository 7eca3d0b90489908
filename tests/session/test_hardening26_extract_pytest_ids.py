"""pytest keeps a string parameter's spaces in the test's id (``test_accept[eagle3 llama 8b-4]``;
pytest _pytest/python.py, _idval: a str parameter is its own id). The short summary line
"FAILED tests/test_spec.py::test_accept[eagle3 llama 8b-4] - assert 0.12 > 0.5" was not read
as a failed test: the error was the run's first line ("tests/test_spec.py F. [100%]")."""

import pytest

from spec_debug.session.failures import extract_errors

_RUN = """tests/test_spec.py F.                                                     [100%]

=================================== FAILURES ===================================
_______________________ test_accept[{id}] ________________________

    def test_accept(case):
>       assert acc > 0.5
E       assert 0.12 > 0.5

tests/test_spec.py:12: AssertionError
=========================== short test summary info ============================
FAILED tests/test_spec.py::test_accept[{id}] - assert 0.12 > 0.5
========================= 1 failed, 1 passed in 0.12s =========================
"""


@pytest.mark.parametrize("test_id", ["eagle3 llama 8b-4", "eagle3-llama-8b-4", "prompt=what is 2 + 2?"])
def test_a_failed_parametrized_test_is_read(test_id):
    [err] = extract_errors(_RUN.format(id=test_id), exit_code=1)
    # before (an id with a space): exit_code "tests/test_spec.py F.   [100%]"
    assert (err.kind, err.exception, err.file, err.line) == ("test_failure", "AssertionError", "tests/test_spec.py", 12)
    assert err.message == f"tests/test_spec.py::test_accept[{test_id}]: assert 0.12 > 0.5"


def test_a_class_method_id_without_a_message():
    out = "FAILED tests/test_spec.py::TestTree::test_verify[tree 2x4]\n1 failed in 0.1s\n"
    [err] = extract_errors(out, exit_code=1)
    assert (err.kind, err.message) == ("test_failure", "tests/test_spec.py::TestTree::test_verify[tree 2x4]")
