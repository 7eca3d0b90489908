"""A fact that is None (its capture matched nothing) meeting a filter or an operator in a command.

The stand-in for such a fact was refused when written out or when a filter's error happened to
name its class; other ways through let the None into the command or hid which fact it was:
`{{ facts.port | pprint }}` and `{{ [facts.port] }}` ran `echo None` and passed, `| reverse`
failed "argument must be iterable", and `facts.port.x` named an internal class. Now each fails
the step naming the fact and the step that captured it, and `tojson` writes a nested one as
null (as it already did a bare one)."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

FIND = """name: none_fact_filters
steps:
  - id: find
    run: echo no port printed here
    capture:
      - regex: 'port=(?P<port>\\d+)'
  - id: use
    run: {run}
"""


def _use(tmp_path, run: str) -> dict:
    (tmp_path / "p.yaml").write_text(FIND.format(run=json.dumps(run)))
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    return {step["id"]: step for step in json.loads(result.stdout)["steps"]}["use"]


@pytest.mark.parametrize("run", ["echo {{ facts.port | pprint }}", "echo {{ [facts.port] }}", "echo {{ (facts.port, 1) }}",
                                 "echo {{ {'port': facts.port} }}", "echo {{ facts.port | reverse }}",
                                 "echo {{ facts.port.real }}", "echo {{ facts.port[0] }}"])
def test_a_none_fact_through_a_filter_fails_the_step_naming_it(tmp_path, run):
    use = _use(tmp_path, run)
    assert use["status"] == "error", use
    assert "facts.port is None: step 'find' captured it, but its capture matched nothing" in use["message"], use["message"]
    assert "_NoFact" not in use["message"]
    assert not (use["stdout"] or "").strip()


def test_a_nested_none_fact_in_tojson_is_null(tmp_path):
    use = _use(tmp_path, "echo {{ {'port': facts.port, 'tries': [facts.port, 2]} | tojson }}")
    assert use["status"] == "passed", use["message"]
    assert json.loads(use["stdout"]) == {"port": None, "tries": [None, 2]}
