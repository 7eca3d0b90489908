"""A check over the values of an `all: true` capture that matched nothing (the log format
changed, the server printed no acceptance lines yet): the fact is an empty list.

`facts.accs | max > 2` and `facts.accs[-1] > 2` failed as "undefined variable in expression
...: No aggregated item, sequence was empty" (no variable was undefined), and the mean
`(facts.accs | sum) / (facts.accs | length)` as "ZeroDivisionError: division by zero". Each
now names the fact, says it is empty and how to guard it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize("that", ["(facts.accs | sum) / (facts.accs | length) > 2", "facts.accs | max > 2",
                                  "facts.accs[-1] > 2", "facts.accs | first > 2"])
def test_a_check_over_an_empty_capture_says_the_list_is_empty(tmp_path, that):
    (tmp_path / "p.yaml").write_text(f"""name: empty
steps:
  - id: bench
    run: echo no acceptance lines here
    capture:
      - regex: 'accept_length=(?P<accs>[0-9.]+)'
        all: true
    expect:
      - that: {that}
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    (step,) = json.loads(result.stdout)["steps"]
    assert step["status"] == "error"
    assert "failed: facts.accs is an empty list" in step["message"], step["message"]
    assert "guard it: facts.accs and ..." in step["message"]
    assert "undefined variable" not in step["message"] and "ZeroDivisionError" not in step["message"]
