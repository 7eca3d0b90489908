"""Review of ea4b14c (numbers a float cannot hold refused at load): YAML 1.1 reads a float with
`_` anywhere among its digits (`1__0.0e+400`, `1.0_e+400`: PyYAML's float resolver takes
[0-9_]* and construct_yaml_float drops the underscores), which Python's float() refuses: the
new range check raised a ValueError traceback out of the loader (before, the value loaded as
inf unsaid). Now it is refused as the other numbers past a float's range are."""

from __future__ import annotations

import pytest

from spec_debug.errors import PlaybookError
from spec_debug.playbook.loader import load_playbook_text

PLAYBOOK = "name: p\nvars:\n  max_ms: {value}\nsteps:\n  - id: a\n    run: echo\n"


@pytest.mark.parametrize("value, said", [("1__0.0e+400", "infinity"), ("1.0_e+400", "infinity"), ("1_.5e-400", "reads as 0")])
def test_underscored_digits_past_a_floats_range_are_refused_where_written(value, said):
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(value=value), "p.yaml")
    assert (raised.value.line, raised.value.column) == (3, 11) and said in raised.value.message, raised.value


def test_underscored_digits_a_float_holds_are_refused_naming_the_number():
    # Loaded as 1e31 until round 68: now refused as `1_000` is (test_hardening68_underscore_float.py),
    # with no traceback, naming the number in a form YAML 1.1 reads as that float.
    with pytest.raises(PlaybookError) as raised:
        load_playbook_text(PLAYBOOK.format(value="1__0.0e+30"), "p.yaml")
    assert (raised.value.line, raised.value.column) == (3, 11), raised.value
    assert "'1__0.0e+30' would be read as the number 10.0e+30 (at vars.max_ms)" in str(raised.value), raised.value
