"""`--var port=0x10` for a number var names the number it is, not 0.

A whole number written in hex or binary, or with `_` between digits (as YAML 1.1 and Python
write them: 0x10 is 16, 0b11 is 3, 1_000 is 1000), is text to a `--var`. It was refused, rightly,
but the x or b was read as a unit after the number 0: the hint said `--var port=0`, another
number. The hint now gives the same number in decimal (`--var port=16`), for a --var and a
quoted --var-file value alike; a number with a unit keeps its own hint."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: serve
vars:
  port: 30000
steps:
  - id: show
    run: echo {{ port }}
"""


def _refused(tmp_path: Path, *given: str) -> str:
    playbook = tmp_path / "serve.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), *given)
    assert result.code == 2, result.stderr
    assert not out.exists() or not any(out.iterdir())
    return " ".join(result.stderr.split())


@pytest.mark.parametrize(("written", "meant"), [
    ("0x10", "16"), ("0X1f", "31"), ("-0b11", "-3"), ("+0b1_0", "2"), ("1_000", "1000"), ("0x1F_FF", "8191"),
])
def test_a_number_in_another_base_is_named_in_decimal(tmp_path, written, meant):
    said = _refused(tmp_path, "--var", f"port={written}")
    assert (f"--var port={written}: port is a number in the playbook (default 30000), and {written} is text its "
            "checks cannot compare (only decimal digits are read as a number)") in said
    assert said.endswith(f"hint: write the number in decimal: --var port={meant}")


def test_a_quoted_hex_value_in_a_var_file_gets_the_same_number(tmp_path):
    var_file = tmp_path / "vars.yaml"
    var_file.write_text('port: "0x10"\n', encoding="utf-8")
    said = _refused(tmp_path, "--var-file", str(var_file))
    assert "vars.yaml:1:7: port is a number in the playbook (default 30000), and 0x10 is text" in said
    assert said.endswith("hint: write the number in decimal: port: 16")


@pytest.mark.parametrize(("written", "hint"), [
    ("10GB", "--var port=10"),  # a unit: the number before it
    ("0xZZ", "--var port=0"),  # no hex digits: not a number in another base
    ("0o17", "--var port=15"),  # YAML 1.2's octal keeps its own hint
])
def test_other_texts_keep_their_hints(tmp_path, written, hint):
    assert hint in _refused(tmp_path, "--var", f"port={written}")
