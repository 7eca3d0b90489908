"""`--var request_rate=1_000.5` for a number var names 1000.5, not the default.

A number with a decimal point and `_` between its digits (Python's float() and YAML 1.1 read
1_000.5 as 1000.5) is text to a `--var`, as `1_000` is (test_hardening66_var_other_base.py). It was
refused as "'1_000.5' is not a number" with the hint `--var request_rate=0.5`: the default, another
number, which a user following the hint then ran with. Now it is refused as 1_000 is, with the
number it means written plainly."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: bench
vars:
  request_rate: 0.5
steps:
  - id: show
    run: echo {{ request_rate }}
"""


def _refused(tmp_path: Path, *given: str) -> str:
    playbook = tmp_path / "bench.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), *given)
    assert result.code == 2, result.stderr
    assert not out.exists() or not any(out.iterdir())
    return " ".join(result.stderr.split())


@pytest.mark.parametrize(("written", "meant"), [
    ("1_000.5", "1000.5"), ("-1_000.25", "-1000.25"), ("+2_5.0_5", "25.05"), ("1_000.", "1000."),
])
def test_a_decimal_with_digit_separators_is_named_plainly(tmp_path, written, meant):
    said = _refused(tmp_path, "--var", f"request_rate={written}")
    assert (f"--var request_rate={written}: request_rate is a number in the playbook (default 0.5), and {written} is "
            "text its checks cannot compare (only decimal digits are read as a number)") in said, said
    assert said.endswith(f"hint: write the number in decimal: --var request_rate={meant}"), said


@pytest.mark.parametrize("written", ["1__0.5", "_1.5", "1.5_", "1_.5"])
def test_a_misplaced_separator_is_not_a_number(tmp_path, written):
    said = _refused(tmp_path, "--var", f"request_rate={written}")
    assert f"{written!r} is not a number" in said, said
