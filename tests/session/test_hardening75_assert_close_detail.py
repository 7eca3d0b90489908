"""torch.testing.assert_close's failure keeps how far the values were apart.

A user checks an EAGLE-3 drafter's logits against the speculators reference with
``torch.testing.assert_close`` and it fails. torch prints "AssertionError: Tensor-likes are not
close!" and, after a blank line, the mismatch's share and greatest differences. Before, the
error's message was "Tensor-likes are not close!" alone: a rounding difference (1e-3) and a wrong
layer (every element off) read the same. Now the message goes on with "Mismatched elements: 2 / 8
(25.0%); Greatest absolute difference: ... at index (0, 2) (up to 0.001 allowed)" (a scalar's
"Expected 1.5 but got 1.0; Absolute difference: ..."). The outputs below are torch 2.13's, as
printed by the scripts shown."""

from __future__ import annotations

from spec_debug.session.failures import extract_errors

_TORCH = "/root/.pyenv/versions/3.11.7/lib/python3.11/site-packages/torch/testing/_comparison.py"

# a = torch.zeros(2, 4); b = a.clone(); b[0, 2] = 0.0123; b[0, 1] = 1e-5; b[1, 3] = 0.002
# torch.testing.assert_close(a, b, rtol=1e-3, atol=1e-3)
TENSORS = f'''Traceback (most recent call last):
  File "/home/u/check_drafter.py", line 3, in <module>
    torch.testing.assert_close(a, b, rtol=1e-3, atol=1e-3)
  File "{_TORCH}", line 1631, in assert_close
    raise error_metas[0].to_error(msg)
AssertionError: Tensor-likes are not close!

Mismatched elements: 2 / 8 (25.0%)
Greatest absolute difference: 0.012299999594688416 at index (0, 2) (up to 0.001 allowed)
Greatest relative difference: 1.0 at index (0, 2) (up to 0.001 allowed)
'''

# torch.testing.assert_close(1.0, 1.5)
SCALARS = f'''Traceback (most recent call last):
  File "/home/u/check_scalar.py", line 2, in <module>
    torch.testing.assert_close(1.0, 1.5)
  File "{_TORCH}", line 1631, in assert_close
    raise error_metas[0].to_error(msg)
AssertionError: Scalars are not close!

Expected 1.5 but got 1.0.
Absolute difference: 0.5 (up to 1e-07 allowed)
Relative difference: 0.3333333333333333 (up to 1e-07 allowed)
'''


def test_tensor_mismatch_share_and_difference_kept():
    [error] = extract_errors(TENSORS, exit_code=1)
    assert (error.kind, error.exception) == ("traceback", "AssertionError")
    assert error.message == ("Tensor-likes are not close! Mismatched elements: 2 / 8 (25.0%); Greatest absolute "
                             "difference: 0.012299999594688416 at index (0, 2) (up to 0.001 allowed)")


def test_integer_tensors_not_equal():
    out = TENSORS.replace("are not close!", "are not equal!").replace(" (up to 0.001 allowed)", "")
    [error] = extract_errors(out, exit_code=1)
    assert error.message == ("Tensor-likes are not equal! Mismatched elements: 2 / 8 (25.0%); Greatest absolute "
                             "difference: 0.012299999594688416 at index (0, 2)")


def test_scalar_expected_and_difference_kept():
    [error] = extract_errors(SCALARS, exit_code=1)
    assert error.message == ("Scalars are not close! Expected 1.5 but got 1.0; "
                             "Absolute difference: 0.5 (up to 1e-07 allowed)")


def test_vllm_logged_traceback_lines_read_behind_the_prefix():
    prefix = "(EngineCore_0 pid=77) "
    out = "".join(prefix + line + "\n" for line in TENSORS.splitlines())
    [error] = extract_errors(out, exit_code=1)
    assert error.message.startswith("Tensor-likes are not close! Mismatched elements: 2 / 8 (25.0%); ")


def test_a_message_with_nothing_after_it_is_kept_as_it_was():
    out = TENSORS.split("\n\n")[0] + "\n$ echo done\ndone\n"
    [error] = extract_errors(out, exit_code=1)
    assert error.message == "Tensor-likes are not close!"
