"""A step list written as one value: `steps: 3` (a count, as a training config's max_steps),
`steps: true`, `steps: ""`, and a step written as a number or a list (`- 3`). They were pydantic's
words alone ("Input should be a valid list (got int 3)"), or, for a boolean, a hint to quote it
(which fails the same way): now each says what goes there, at its line and column."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text


def _error(text: str) -> PlaybookError:
    with pytest.raises(PlaybookError) as caught:
        load_playbook_text(text, "scalars.yaml")
    return caught.value


@pytest.mark.parametrize("written", ["3", "3.5", "0"])
def test_a_count_where_the_steps_go_says_it_is_the_list_of_steps(written):
    error = _error(f"name: t\nsteps: {written}\n")
    assert (error.line, error.column, error.key_path) == (2, 8, "steps")
    assert error.hint == "steps is the list of steps, not a count: below steps:, write '  - id: step_1' and under it '    run: <command>'"


@pytest.mark.parametrize("written", ["true", "False", '""', "'  '"])
def test_a_boolean_or_empty_text_where_the_steps_go_is_not_told_to_quote_it(written):
    error = _error(f"name: t\nsteps: {written}\n")
    assert (error.line, error.column) == (2, 8)
    assert error.hint.startswith("steps is the list of steps, not one value: below steps:")


@pytest.mark.parametrize("item", ["3", "true", "[nvidia-smi, -L]", "1.5"])
def test_a_step_written_as_a_value_says_a_step_is_a_mapping(item):
    error = _error(f"name: t\nsteps:\n  - id: ok\n    run: 'true'\n  - {item}\n")
    assert (error.line, error.column, error.key_path) == (5, 5, "steps[1]")
    assert error.hint == "a step is a mapping of keys: write '- id: step_2' and below it 'run: <command>'"


def test_a_boolean_where_text_goes_still_says_to_quote_it():
    error = _error("name: t\nsteps:\n  - id: ok\n    run: true\n")
    assert error.hint == "YAML read this as a boolean; quote it if you meant text"
