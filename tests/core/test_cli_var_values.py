"""--var values: numbers become numbers only when YAML/JSON would write them the same way, so a
git revision, a zero-padded GPU list or an underscored count reaches the playbook as typed."""

from __future__ import annotations

import pytest

from spec_debug.cli import parse_var_assignments


@pytest.mark.parametrize("typed, value", [
    ("12", 12), ("-3", -3), ("0", 0), ("1.5", 1.5), ("2e3", 2000.0), (".5", 0.5), ("1.", 1.0),
    ("true", True), ("null", None), ("[1, 2]", [1, 2]),
    ("0123", "0123"), ("08", "08"), ("1_000", "1_000"), ("nan", "nan"), ("inf", "inf"), ("0x1f", "0x1f"),
    ("3,31,59", "3,31,59"), ("", ""), ("a=b", "a=b"),
])
def test_a_var_keeps_what_the_user_typed_unless_it_is_a_plain_number(typed, value):
    assert parse_var_assignments([f"v={typed}"]) == {"v": value}
