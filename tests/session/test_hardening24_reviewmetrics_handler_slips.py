"""A handler's slip gives way to the fault it handled, but only a slip does (review of today's rule).

- An AttributeError that is no touch of None is a fault of its own: a fallback import that finds
  an old torch ("module 'torch' has no attribute 'float8_e4m3fn'" while handling "No module named
  'flash_attn'"), or a __getattr__ that turns its KeyError into one ("except KeyError: raise
  AttributeError(name)", easydict, transformers' BatchEncoding): the KeyError said less.
- What the handler caught may be no fault: Ctrl-C or an iterator's end ("except StopIteration:
  batch = nxt(loader)"); the slip in such a handler is then the fault, not "KeyboardInterrupt".
"""

import pytest

from spec_debug.session.failures import extract_errors

FRAMES = 'Traceback (most recent call last):\n  File "/app/train.py", line 10, in main\n    step()\n'
HANDLING = "\nDuring handling of the above exception, another exception occurred:\n\n"


def _error(handled, raised):
    e = extract_errors(FRAMES + handled + "\n" + HANDLING + FRAMES + raised + "\n", exit_code=1)[0]
    return e.exception, e.message


@pytest.mark.parametrize("handled, raised", [
    ("ModuleNotFoundError: No module named 'flash_attn'", "AttributeError: module 'torch' has no attribute 'float8_e4m3fn'"),
    ("KeyError: 'eagle_aux_hidden_state_layer_ids'",
     "AttributeError: 'LlamaConfig' object has no attribute 'eagle_aux_hidden_state_layer_ids'"),
])
def test_an_attribute_error_not_on_none_is_the_fault(handled, raised):
    assert _error(handled, raised) == tuple(raised.split(": ", 1))


@pytest.mark.parametrize("handled", ["KeyboardInterrupt", "StopIteration", "SystemExit: 0"])
def test_a_slip_while_handling_no_fault_is_the_fault(handled):
    assert _error(handled, "NameError: name 'nxt' is not defined") == ("NameError", "name 'nxt' is not defined")


def test_a_slip_on_none_after_a_fault_still_gives_way():
    assert _error("ValueError: d2t has 32000 entries", "AttributeError: 'NoneType' object has no attribute 'finish'") \
        == ("ValueError", "d2t has 32000 entries")
