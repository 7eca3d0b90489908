"""`--var num_prompts=1e3` for a var whose default is a whole number (a count) became the float
1000.0, and the command got `--num-prompts 1000.0`: a benchmark script's argparse `type=int`
refused it ("invalid int value: '1000.0'"), the step failed for a number the user wrote right.
A whole number written with an exponent is now the int for an int var; a decimal point
(`1000.0`) and a fraction (`1e-1`) are kept as written, and a float var stays a float."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli

PLAYBOOK = """\
name: bench
vars:
  num_prompts: 200
  request_rate: 1.5
steps:
  - id: bench
    run: >-
      python3 -c 'import argparse; p = argparse.ArgumentParser();
      p.add_argument("--num-prompts", type=int); p.add_argument("--request-rate", type=float);
      print(p.parse_args())' --num-prompts {{ num_prompts }} --request-rate {{ request_rate }}
"""


@pytest.mark.parametrize(("given", "printed"), [
    ("num_prompts=1e3", "Namespace(num_prompts=1000, request_rate=1.5)"),
    ("num_prompts=2.5E3", "Namespace(num_prompts=2500, request_rate=1.5)"),
    ("request_rate=1e1", "Namespace(num_prompts=200, request_rate=10.0)"),
])
def test_a_whole_number_written_with_an_exponent_reaches_an_int_option_as_an_int(
        tmp_path: Path, given: str, printed: str) -> None:
    playbook = tmp_path / "bench.yaml"
    playbook.write_text(PLAYBOOK, encoding="utf-8")
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json", "--var", given)
    assert result.code == 0, result.stderr
    (step,) = json.loads(result.stdout)["steps"]
    assert (step["status"], step["stdout"]) == ("passed", printed + "\n")
