"""A run of more than 4,300 digits in a step's output no longer fails its captures with
Python's own advice.

Python (3.11, 3.10.7 and later) refuses to read an int from more than 4,300 digits
(sys.get_int_max_str_digits; CVE-2020-10735). A regex capture with no type over such a run, a
json: capture of a document holding such a number anywhere (even a key the capture does not
read), and a `type: int` capture all failed the step with "capture failed: Exceeds the limit
(4300 digits) for integer string conversion: value has 5000 digits; use
sys.set_int_max_str_digits() to increase the limit": an SD003 whose fix is no playbook's to
make, and the json: capture lost the value it asked for. Now an auto capture keeps such a run
as text (numbers become numbers, everything else stays as it is, docs/playbooks.md), a json:
capture reads the document with that number as its digits' text, and `type: int` says what it
could not read. Through the real CLI.
"""

from __future__ import annotations

import json
import sys

from tests.conftest import only_run, run_cli

LIMIT = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 4300
DIGITS = "7" * (LIMIT + 700)

PLAYBOOK = f"""\
name: p
steps:
  - id: regex_auto
    run: |
      echo 'seed={DIGITS}'
    capture:
      - regex: 'seed=(?P<seed>\\d+)'
  - id: json_other_key
    run: |
      echo '{{"version": "0.5.3", "seed": {DIGITS}, "n": 12}}'
    capture:
      - json: version
        name: engine_version
      - json: n
        name: n
      - json: seed
        name: json_seed
  - id: regex_int
    run: |
      echo 'seed={DIGITS}'
    capture:
      - regex: 'seed=(?P<int_seed>\\d+)'
        type: int
"""


def test_a_run_of_digits_past_pythons_limit(tmp_path):
    if not hasattr(sys, "get_int_max_str_digits"):
        return  # no such limit in this Python: nothing to check
    playbook = tmp_path / "p.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out))
    assert "Traceback" not in result.stderr, result.stderr
    assert "set_int_max_str_digits" not in result.stderr, result.stderr
    _, record = only_run(out)
    steps = {s["id"]: s for s in record["steps"]}
    assert [(s["id"], s["status"]) for s in record["steps"]] == [
        ("regex_auto", "passed"), ("json_other_key", "passed"), ("regex_int", "error")], [s["message"] for s in record["steps"]]
    facts = record["facts"]["local"]
    assert facts["seed"] == DIGITS
    assert (facts["engine_version"], facts["n"], facts["json_seed"]) == ("0.5.3", 12, DIGITS)
    assert steps["regex_int"]["message"] == (
        f"capture failed: int_seed (type: int): cannot read '{DIGITS[:80]}'... ({len(DIGITS)} characters) as an int: "
        f"a number of {len(DIGITS)} digits, more than the {LIMIT} Python reads one from: capture fewer digits, or "
        "keep it as text (type: str)")
    assert [(f["code"], f["step"]) for f in record["findings"]] == [("SD003", "regex_int")]
    assert result.code == 0, result.stderr
    assert json.loads((out / record["run_id"] / "run.json").read_text())["facts"]["local"]["seed"] == DIGITS
