"""Numbers written as YAML 1.2 (and JSON, and Python) write them, which YAML 1.1 reads as text.

PyYAML reads playbooks as YAML 1.1, whose floats need a '.' and a signed exponent and whose
ints have no 0o prefix (yaml.org/type/float.html, yaml.org/type/int.html): `1e3`, `1.5e3`,
`2e-5` and `0o17` are strings there. `min_tokens: 1e3` with `that: facts.n > min_tokens`
validated, then failed on every host as SD003 ("min_tokens is the text '1e3', not a number");
`timeout: 1e3` was refused with no hint. Both now name the number meant, spelt so YAML 1.1
reads it.
"""

from __future__ import annotations

import pytest
import yaml

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook
from spec_debug.playbook.number_text import number_meant

COMPARED = """name: p
vars:
  min_tokens: {value}
steps:
  - id: decode
    run: echo 5000
    capture:
      - regex: (?P<n>\\d+)
        type: int
    expect:
      - that: facts.n > min_tokens
"""


@pytest.mark.parametrize("written, meant", [("1e3", "1000"), ("1.5e3", "1500"), ("2e-5", "2.0e-5"), ("0o17", "15")])
def test_a_var_compared_as_a_number_is_refused_with_the_number_to_write(write_playbook, written, meant):
    with pytest.raises(PlaybookError) as raised:
        load_playbook(write_playbook(COMPARED.format(value=written)))
    error = raised.value
    assert (error.line, error.column) == (3, 15) and f"'min_tokens' is written {written}" in error.message, error
    assert error.hint == f"write it as a number YAML 1.1 reads: min_tokens: {meant}"
    # the hint's spelling is the same number to YAML 1.1, and the playbook then loads
    assert yaml.safe_load(meant) == float(meant) if "." in meant else yaml.safe_load(meant) == int(meant)
    load_playbook(write_playbook(COMPARED.format(value=meant), "fixed.yaml"))


def test_such_a_var_only_put_into_text_stays_text(write_playbook):
    text = "name: p\nvars:\n  tag: 1e3\nsteps:\n  - id: a\n    run: echo {{ tag }}\n"
    assert load_playbook(write_playbook(text)).playbook.vars["tag"] == "1e3"


@pytest.mark.parametrize("field, written, meant", [("timeout", "1e3", "1000"), ("retries", "1e1", "10"), ("timeout", "0o17", "15")])
def test_a_step_field_written_so_gets_the_number_in_its_hint(write_playbook, field, written, meant):
    with pytest.raises(PlaybookError) as raised:
        load_playbook(write_playbook(f"name: p\nsteps:\n  - id: a\n    run: 'true'\n    {field}: {written}\n"))
    assert raised.value.hint == f"YAML 1.1 reads {written} as text: write {field}: {meant}"


def test_only_yaml12_number_spellings_are_taken_for_numbers():
    assert [number_meant(t) for t in ("e3", "1e", "0o8", "v1e3", "1.0", "12", "1.5e+20")] == [None] * 6 + ["1.5e+20"]


@pytest.mark.parametrize("value, meant", [("1e3", "1000"), ("0o17", "15"), ("2e-5", "2.0e-5")])
def test_such_a_value_for_a_number_var_is_not_taken_for_a_unit(value, meant):
    # `min_tokens: 1e3` in a --var-file arrives as the text '1e3': 'e3' was read as a unit and
    # the hint said --var min_tokens=1.
    from spec_debug.playbook.number_text import number_given_with_unit

    error = number_given_with_unit("min_tokens", value, 100)
    assert error is not None and f"--var min_tokens={meant}," in error.hint and f"min_tokens: {meant} in a --var-file" in error.hint
    assert "'GB' after it" in number_given_with_unit("min_free", "20GB", 20).message
