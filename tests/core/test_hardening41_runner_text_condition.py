"""A `that:`, `when:` or `until:` whose value is a text that says false (`false`, `no`, `off`,
`0`) is refused, naming the text, instead of being true.

A capture left as text keeps `ready=false` as 'false', and any text but '' is true to Jinja:
`that: facts.ready` passed on a host whose server said it was not ready, `when: facts.enabled`
ran the step on a host that printed `enabled=no`, and `until: facts.ready` stopped polling at
the first `ready=False`."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _steps(tmp_path, steps: str) -> dict[str, dict]:
    (tmp_path / "p.yaml").write_text("name: words\nsteps:\n" + steps)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    return {step["id"]: step for step in json.loads(result.stdout)["steps"]}


@pytest.mark.parametrize("printed", ["false", "False", "no", "off", "0"])
def test_a_check_on_a_text_that_says_false_does_not_pass(tmp_path, printed):
    step = _steps(tmp_path, f"""  - id: health
    run: echo "ready={printed}"
    capture:
      - regex: 'ready=(?P<ready>\\S+)'
        type: str
    expect:
      - that: facts.ready
""")["health"]
    assert step["status"] == "error", step
    assert f"expression 'facts.ready' is the text '{printed}', which is true" in step["message"], step["message"]


def test_the_hint_compares_with_the_text_that_says_true(tmp_path):
    (tmp_path / "p.yaml").write_text("""name: words
steps:
  - id: health
    run: echo "ready=False"
    capture:
      - regex: 'ready=(?P<ready>\\S+)'
    expect:
      - that: facts.ready
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    # The text that says false would make the check pass on exactly the hosts it should fail.
    assert any(f["remediation"].startswith("Compare it: facts.ready == 'True', or capture it with type: bool")
               for f in record["findings"]), record["findings"]


def test_a_when_on_a_text_that_says_false_does_not_run_the_step(tmp_path):
    steps = _steps(tmp_path, """  - id: config
    run: echo "eagle_enabled=no"
    capture:
      - regex: 'eagle_enabled=(?P<enabled>\\S+)'
  - id: eagle_checks
    when: facts.enabled
    run: echo ran the eagle checks
""")
    step = steps["eagle_checks"]
    assert step["status"] == "error" and "ran the eagle checks" not in (step["stdout"] or ""), step
    assert "expression 'facts.enabled' is the text 'no', which is true" in step["message"], step["message"]


def test_an_until_on_a_text_that_says_false_keeps_polling(tmp_path):
    step = _steps(tmp_path, """  - id: wait
    run: echo "ready=False"
    retries: 1
    retry_delay: 0
    capture:
      - regex: 'ready=(?P<ready>\\S+)'
    until: facts.ready
""")["wait"]
    assert step["status"] != "passed" and step["attempts"] == 2, step
    assert "is the text 'False', which is true" in step["message"], step["message"]


@pytest.mark.parametrize("capture, that, status", [
    ("type: bool", "facts.ready", "failed"),
    ("type: str", "facts.ready == 'false'", "passed"),
    ("type: str", "not facts.missing_word", "failed"),
])
def test_a_bool_capture_or_a_comparison_reads_as_before(tmp_path, capture, that, status):
    step = _steps(tmp_path, f"""  - id: health
    run: echo "ready=false missing_word=sglang"
    capture:
      - regex: 'ready=(?P<ready>\\S+)'
        {capture}
      - regex: 'missing_word=(?P<missing_word>\\S+)'
    expect:
      - that: "{that}"
""")["health"]
    assert step["status"] == status, step
