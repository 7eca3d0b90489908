"""Review of ea4b14c/4a0411d (numbers a float cannot hold): -1e400 is -infinity to a float, and
was said to read "as infinity" with the hint "write a smaller number" (smaller than -inf is no
number); -1e-400 was to be written "a larger number" (0 is larger). Both now say which way to go."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text
from spec_debug.playbook.number_text import number_given_with_unit


@pytest.mark.parametrize("value, said, hint", [
    ("-1e400", "(it reads as -infinity)", "write a number nearer 0: --var min_delta=-0.5"),
    ("-1e-400", "closer to 0", "write a number further from 0: --var min_delta=-0.5"),
    ("1e400", "(it reads as infinity)", "write a smaller number: --var min_delta=-0.5"),
])
def test_a_var_past_a_floats_range_is_told_which_way_to_go(value, said, hint):
    error = number_given_with_unit("min_delta", value, -0.5)
    assert error is not None and said in error.message and error.hint == hint, error


def test_a_negative_yaml_float_past_the_range_reads_as_minus_infinity():
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text("name: p\nvars:\n  floor: -1.0e+400\nsteps:\n  - id: a\n    run: echo\n", "p.yaml")
    assert "(it reads as -infinity)" in raised.value.message, raised.value
