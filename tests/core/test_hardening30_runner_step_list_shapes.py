"""A step list that is not one: `steps: nvidia-smi` (the command where the list goes) and a `-`
left alone on its line (an item emptied, or its keys indented under the next dash). Both were
pydantic's words alone ("Input should be a valid list", "Input should be a mapping of keys
(a step) (got NoneType None)") with no hint of what to write."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


def _error(text: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "shapes.yaml")
    return caught.value


def test_a_command_written_where_the_steps_go_gets_the_list_to_write():
    error = _error("name: t\nsteps: nvidia-smi -L\n")
    assert (error.line, error.column) == (2, 8)
    assert error.hint == "steps is a list of steps: below steps:, write '  - id: step_1' and under it '    run: nvidia-smi -L'"


def test_a_dash_alone_on_its_line_is_said_as_an_empty_item():
    error = _error("name: t\nsteps:\n  -\n  - id: check\n    run: nvidia-smi\n")
    assert (error.line, error.column) == (3, 4) and error.key_path == "steps[0]"
    assert error.hint.startswith("this '-' has nothing after it")
