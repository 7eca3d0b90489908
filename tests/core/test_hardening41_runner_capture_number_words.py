"""A `type: int` or `type: float` capture of a number with a thousands separator or a unit
names the fact and the fix.

The step errored with Python's own words, "capture failed: invalid literal for int() with base
10: '1,024'" or "could not convert string to float: '1,234.5'": neither the fact nor the cause
(vLLM and benchmark scripts print `1,234.5 tok/s`)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("printed, kind, article", [("1,024", "int", "an int"), ("1,234.5", "float", "a float"),
                                                    ("12.5", "int", "an int")])
def test_a_number_capture_that_cannot_be_read_names_the_fact(tmp_path, printed, kind, article):
    (tmp_path / "p.yaml").write_text(f"""name: numbers
steps:
  - id: bench
    run: echo "throughput {printed} tok/s"
    capture:
      - regex: 'throughput (?P<tps>\\S+) tok/s'
        type: {kind}
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "error"
    assert step["message"].startswith(f"capture failed: tps (type: {kind}): cannot read '{printed}' as {article} "
                                      "(a unit, a thousands separator or a decimal point in it?)"), step["message"]


def test_a_json_capture_that_cannot_be_read_names_the_fact(tmp_path):
    (tmp_path / "p.yaml").write_text("""name: numbers
steps:
  - id: bench
    run: |
      echo '{"prompts": "1,000"}'
    capture:
      - json: prompts
        name: num_prompts
        type: int
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "error"
    assert "num_prompts (type: int): cannot read '1,000' as an int" in step["message"], step["message"]
