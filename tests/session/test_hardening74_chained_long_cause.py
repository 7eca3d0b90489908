"""A chained cause whose message runs over many lines stays the chain's cause.

``model.load_state_dict(sd)`` on a drafter saved for another target raises "RuntimeError:
Error(s) in loading state_dict for Eagle3DraftModel:" with one "size mismatch for ..." line per
tensor; a loader that wraps it (``raise RuntimeError("Failed to load the drafter") from e``)
prints the chain's line and its own traceback after that long message. The chain was looked
for only when fewer than 600 characters stood between the two tracebacks: with a longer
message the two were read as separate failures and the wrapper's "Failed to load the drafter"
reported as one of its own. Now the chain's line, right above the next traceback, joins them
as for a short message: one error, the size mismatch at torch's load_state_dict.
"""

from spec_debug.session.failures import extract_errors

SIZES = "\n".join(
    f"\tsize mismatch for layers.{i}.self_attn.q_proj.weight: copying a param with shape "
    "torch.Size([4096, 8192]) from checkpoint, the shape in current model is torch.Size([4096, 4096])."
    for i in range(6))

CAUSE = f"""\
Traceback (most recent call last):
  File "/app/load.py", line 40, in load_drafter
    model.load_state_dict(sd)
  File "/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", line 2581, in load_state_dict
    raise RuntimeError(
RuntimeError: Error(s) in loading state_dict for Eagle3DraftModel:
{SIZES}
"""

WRAPPER = """
Traceback (most recent call last):
  File "/app/main.py", line 10, in <module>
    load_drafter()
  File "/app/load.py", line 42, in load_drafter
    raise RuntimeError("Failed to load the drafter") from e
RuntimeError: Failed to load the drafter
"""

MESSAGE = ("Error(s) in loading state_dict for Eagle3DraftModel: size mismatch for "
           "layers.0.self_attn.q_proj.weight: copying a param with shape torch.Size([4096, 8192]) "
           "from checkpoint, the shape in current model is torch.Size([4096, 4096]).")


def _one(output):
    errors = extract_errors(output, exit_code=1)
    assert len(errors) == 1, errors
    return errors[0]


def test_long_cause_of_a_vague_wrapper_is_the_error():
    assert len(CAUSE) > 600
    error = _one(CAUSE + "\nThe above exception was the direct cause of the following exception:\n" + WRAPPER)
    assert (error.exception, error.message) == ("RuntimeError", MESSAGE)
    assert (error.file, error.line) == ("/usr/lib/python3.11/site-packages/torch/nn/modules/module.py", 2581)


def test_long_cause_of_a_handler_slip_is_the_error():
    slip = WRAPPER.replace("RuntimeError: Failed to load the drafter",
                           "NameError: name 'logger' is not defined")
    error = _one(CAUSE + "\nDuring handling of the above exception, another exception occurred:\n" + slip)
    assert (error.exception, error.message) == ("RuntimeError", MESSAGE)


def test_two_separate_tracebacks_stay_two():
    # no chain's line between them: two failures, as before
    errors = extract_errors(CAUSE + "\nINFO retrying\n" + WRAPPER, exit_code=1)
    assert [e.message for e in errors] == [MESSAGE, "Failed to load the drafter"]
