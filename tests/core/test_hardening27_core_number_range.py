"""A number past what a float holds, refused where it is written.

`1e400` reads as infinity and `1e-400` as 0, with nothing said, in YAML (`1.0e-400`), Jinja
(`that: facts.kl < 1e-400`) and Python (`--var min_kl=1e-400`): the check then compared with 0
or infinity on every host. A YAML 1.1 text var (`min_kl: 1e-400`) was refused with the hint
"write it as min_kl: 0".
"""

from __future__ import annotations

import pytest

from spec_debug.cli import _scalar
from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text
from spec_debug.playbook.number_text import number_given_with_unit, number_meant

PLAYBOOK = """name: p
vars:
  min_kl: {value}
steps:
  - id: kl
    run: echo 5
    capture:
      - name: kl
        regex: '(\\d+)'
    expect:
      - that: {that}
"""


@pytest.mark.parametrize("value, that, where, what", [
    ("1.0e-400", "facts.kl > min_kl", (3, 11), "closer to 0"),
    ("-2.5E+400", "facts.kl > min_kl", (3, 11), "larger than any"),
    ("1e-400", "facts.kl > min_kl", (3, 11), "closer to 0"),
    ("1", "facts.kl > 1e-400", (11, 15), "closer to 0"),
    ("1", "facts.kl < 2.5E+999", (11, 15), "larger than any"),
])
def test_a_number_past_a_float_is_refused_where_written(value, that, where, what):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(value=value, that=that), "p.yaml")
    error = raised.value
    assert (error.line, error.column) == where and what in error.message, error
    assert "write it as" not in (error.hint or "") and "1e-300 and 1e300" in error.hint


@pytest.mark.parametrize("value, that", [(".inf", "facts.kl < min_kl"), ("0.0e-500", "facts.kl > min_kl"),
                                         ("1.0e-300", "facts.kl > 1e-300"), ("1.5e+300", "facts.kl < 1E300")])
def test_numbers_a_float_holds_load(value, that):
    assert load_playbook_text(PLAYBOOK.format(value=value, that=that), "p.yaml").vars["min_kl"] is not None


def test_a_cli_var_past_a_float_stays_as_typed_and_is_refused_for_a_number_var():
    assert _scalar("1e-400") == "1e-400" and _scalar("1e400") == "1e400" and _scalar("1e-300") == 1e-300
    assert number_meant("1e-400") is None and number_meant("1e-300") == "1.0e-300"
    error = number_given_with_unit("min_kl", "1e-400", 0.5)
    assert error is not None and "closer to 0 than any number" in error.message
    assert error.hint == "write a larger number: --var min_kl=0.5"


@pytest.mark.parametrize("written, meant", [("1.23456789e5", "1.23456789e+5"), ("6.02214076e23", "6.02214076e+23"),
                                            ("2e-5", "2.0e-5"), ("1e-320", "1.0e-320")])
def test_the_number_a_yaml_12_text_means_keeps_every_digit(written, meant):
    """`{:e}` kept six digits after the point: 1.23456789e5 was to be written 1.234568e+5."""
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(value=written, that="facts.kl > min_kl"), "p.yaml")
    assert raised.value.hint == f"write it as a number YAML 1.1 reads: min_kl: {meant}", raised.value
    assert load_playbook_text(PLAYBOOK.format(value=meant, that="facts.kl > min_kl"), "p.yaml").vars["min_kl"] == float(written)
