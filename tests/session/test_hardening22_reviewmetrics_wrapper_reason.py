"""A wrapper that says why it failed stays the error reported over its cause.

Review of 29f6d39: "RuntimeError: Failed to load draft model because vocab size 32000 does not
match target 128256" raised from "KeyError: 'd2t'" reported the KeyError: the vague-wrapper rule
took every message opening with "Failed to" for one that says only that something failed. A
wrapper that says no more than that ("Failed to load the drafter") still gives way to its cause.
"""

import pytest

from spec_debug.session.failures import extract_errors

HEAD = 'Traceback (most recent call last):\n  File "/x/run.py", line 3, in <module>\n    main()\n'
FROM = "\n\nThe above exception was the direct cause of the following exception:\n\n"


def _reported(cause, wrapper):
    errors = extract_errors(HEAD + cause + FROM + HEAD + wrapper + "\n", exit_code=1)
    return errors[0].exception, errors[0].message


@pytest.mark.parametrize("wrapper", [
    "Failed to load draft model because vocab size 32000 does not match target 128256",
    "Failed to load drafter, expected a d2t tensor in the checkpoint",
    "Failed to initialize CUDA graphs, invalid capture size 3",
    "drafter vocab 32000 does not match target vocab 128256, check the logs for details",
])
def test_a_wrapper_with_a_reason_is_the_error(wrapper):
    assert _reported("KeyError: 'd2t'", f"RuntimeError: {wrapper}") == ("RuntimeError", wrapper)


def test_a_wrapper_without_one_gives_way_to_its_cause():
    assert _reported("KeyError: 'd2t'", "RuntimeError: Failed to load the drafter") == ("KeyError", "'d2t'")
    assert _reported("ValueError: no d2t", "RuntimeError: Loading failed because of an error, see the traceback above") == \
        ("ValueError", "no d2t")


def test_a_wrapper_quoting_its_cause_and_pointing_back_gives_way():
    wrapper = "RuntimeError: Worker failed with error 'invalid shape', please check the stack trace above for the root cause"
    assert _reported("ValueError: invalid shape", wrapper) == ("ValueError", "invalid shape")
