"""A `type: int` or `type: float` JSON capture of a value that is no such number.

`{"accept_len": 3.7}` captured with `type: int` read 3, and `that: facts.accept_len >= 3.5`
raised its finding on a host at 3.7; `{"ok": true}` with `type: int` read 1. The value was
changed without a word. Now the step errors naming the fact and the type to use; a whole number
written as 3.0 still reads 3, and a fractional one with type float or auto is kept."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _bench(tmp_path, printed: dict, kind: str) -> dict:
    (tmp_path / "p.yaml").write_text(f"""name: json_numbers
steps:
  - id: bench
    run: |
      echo '{json.dumps(printed)}'
    capture:
      - json: value
        name: accept_len
        type: {kind}
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    return step


@pytest.mark.parametrize("value, kind, said", [
    (3.7, "int", "accept_len (type: int): 3.7 is not a whole number: use type: float"),
    (True, "int", "accept_len (type: int): true is a boolean, not a number: use type: bool"),
    (False, "float", "accept_len (type: float): false is a boolean, not a number: use type: bool"),
])
def test_a_json_value_that_is_no_such_number_fails_the_step_naming_the_fact(tmp_path, value, kind, said):
    step = _bench(tmp_path, {"value": value}, kind)
    assert step["status"] == "error", step
    assert step["message"].startswith(f"capture failed: {said}"), step["message"]
    assert "accept_len" not in step["facts"]


@pytest.mark.parametrize("value, kind, fact", [(3.0, "int", 3), (3.7, "float", 3.7), (3.7, "auto", 3.7), (7, "float", 7.0),
                                               (True, "bool", True)])
def test_a_json_value_of_its_type_is_kept(tmp_path, value, kind, fact):
    step = _bench(tmp_path, {"value": value}, kind)
    assert step["status"] == "passed", step["message"]
    assert step["facts"]["accept_len"] == fact and type(step["facts"]["accept_len"]) is type(fact)
