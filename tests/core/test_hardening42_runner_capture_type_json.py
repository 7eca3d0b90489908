"""A `type: json` capture of text that is not JSON names the fact and what it read.

The step errored "capture failed: Expecting property name enclosed in double quotes: line 1
column 2 (char 1)": neither the fact nor the text (often a Python dict printed with repr, single
quotes and all, which is the fix to make on the host)."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _bench(tmp_path, printed: str) -> dict:
    (tmp_path / "p.yaml").write_text(f"""name: json_type
steps:
  - id: bench
    run: |
      echo "config={printed}"
    capture:
      - regex: '^config=(?P<engine_config>.*)$'
        type: json
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    return step


def test_text_that_is_not_json_names_the_fact_and_the_text(tmp_path):
    step = _bench(tmp_path, "{'tp': 8}")
    assert step["status"] == "error", step
    assert step["message"].startswith(
        "capture failed: engine_config (type: json): cannot read \"{'tp': 8}\" as JSON "
        "(Expecting property name enclosed in double quotes at character 2)"), step["message"]


def test_json_text_is_still_read(tmp_path):
    step = _bench(tmp_path, '{\\"tp\\": 8}')
    assert step["status"] == "passed", step["message"]
    assert step["facts"]["engine_config"] == {"tp": 8}
