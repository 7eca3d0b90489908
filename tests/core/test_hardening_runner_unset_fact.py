"""A check that reads a fact no step sets said "(the step that captures it failed, errored or
was skipped)" even when every earlier step passed: a misspelt fact (facts.sped for speed) sent
the user to the run log for a failure that never happened. When all earlier steps on the host
passed, the message now says so and names the close fact."""

from __future__ import annotations

import json

from tests.conftest import run_cli

PLAYBOOK = """name: nf
steps:
  - id: measure
    run: echo speed=5
    capture:
      - regex: 'speed=(?P<speed>\\d+)'
  - id: use
    run: echo ok
    expect:
      - that: facts.sped > 1
  - id: after_error
    run: echo "{{ facts.never }}"
"""


def _messages(tmp_path) -> dict[str, str]:
    playbook = tmp_path / "nf.yaml"
    playbook.write_text(PLAYBOOK)
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    record = json.loads(result.stdout)
    return {s["id"]: s["message"] or "" for s in record["steps"]}


def test_misspelt_fact_after_passed_steps_names_the_close_fact(tmp_path):
    message = _messages(tmp_path)["use"]
    assert "facts.sped is not set: no earlier step captured it on this host" in message, message
    assert "did you mean facts.speed?" in message, message
    assert "failed, errored or was skipped" not in message, message


def test_after_an_errored_step_that_captures_nothing_the_name_is_the_cause(tmp_path):
    message = _messages(tmp_path)["after_error"]  # `use` errored before it
    # `use` errored but captures nothing, so it is not the cause (hardening44): the name is
    assert "facts.never is not set" in message and "no step before it captures it: check the name" in message, message
    assert "failed, errored or was skipped" not in message, message
