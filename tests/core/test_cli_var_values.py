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
    # a version float would print otherwise (0.1, 3.1) stays as typed; 1.0 and 2.5 are numbers
    ("0.10", "0.10"), ("3.10", "3.10"), ("0.50", "0.50"), ("1.0", 1.0), ("2.5", 2.5), ("10.0", 10.0),
])
def test_a_var_keeps_what_the_user_typed_unless_it_is_a_plain_number(typed, value):
    assert parse_var_assignments([f"v={typed}"]) == {"v": value}


def test_a_trailing_zero_version_reaches_the_command_as_typed(tmp_path, write_playbook):
    from tests.conftest import only_run, run_cli

    playbook = write_playbook("""
name: versions
vars:
  vllm_version: "0.9.2"
  min_accept: 0.5
steps:
  - id: pin
    run: echo "vllm=={{ vllm_version }} min={{ min_accept }}"
    expect:
      - that: min_accept > 0.4
""")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out),
                     "--var", "vllm_version=0.10", "--var", "min_accept=0.50")
    assert result.code == 0, result.stderr
    _, record = only_run(out)
    (step,) = record["steps"]
    # before: `vllm==0.1`; the number var declared as one still compares as a number
    assert step["stdout"] == "vllm==0.10 min=0.5\n"
    assert step["status"] == "passed"
