"""A comparison with a name like a secret is no assignment of it, and a mask keeps the ")" after it.

The record's NAME=value pattern read `hf_token == 'x'` as `hf_token=` with the value `=`: a
failed `that: facts.api_token == 'expected-token'` was recorded as "expected that
facts.api_token =***REDACTED*** 'expected-token'" (the comparison gone, the literal still there).
And a bare value took the ")" that closed the parentheses it stood in: `login(token=abc)` became
`login(token=***REDACTED***`."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import redact_text, secret_spans
from tests.conftest import run_cli


@pytest.mark.parametrize("text", [
    "expected that facts.api_token == 'expected-token', observed False",
    "when: vars.hf_token == \"\"",
    "if api_key == expected_key: pass",
    "if api_key==\"\": pass",
    "when: ansible_become_pass == 'x'",
])
def test_a_comparison_is_left_as_it_is(text):
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize(("text", "masked"), [
    ("HF_TOKEN=abc", "HF_TOKEN=***REDACTED***"),
    ("export HF_TOKEN==abc", "export HF_TOKEN=***REDACTED***"),  # the shell sets it to "=abc"
    ("api_key: 'abc'", "api_key: '***REDACTED***'"),
    ("ansible_become_pass=abc", "ansible_become_pass=***REDACTED***"),
    ("login(token=abc)", "login(token=***REDACTED***)"),
    ("(facts.hf_token = None)", "(facts.hf_token = ***REDACTED***)"),
    ("[API_KEY=abc)]", "[API_KEY=***REDACTED***)]"),
    ("PASSWORD=a(b)", "PASSWORD=***REDACTED***"),  # a value that opens a parenthesis closes it
    ("PASSWORD=ab)c d", "PASSWORD=***REDACTED*** d"),
    ("{hf_token: abc}", "{hf_token: ***REDACTED***}"),
])
def test_an_assignment_is_still_masked(text, masked):
    assert redact_text(text) == masked


def test_a_failed_comparison_of_a_secret_named_fact_is_recorded_as_written(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "name: t\nsteps:\n  - id: login\n    run: |\n      echo 'token: sk-live-4f9a8b7c6d5e'\n"
        "    capture:\n      - regex: 'token: (?P<api_token>\\S+)'\n"
        "    expect:\n      - that: facts.api_token == 'expected-token'\n")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    record = json.loads(result.stdout)
    (step,) = record["steps"]
    assert step["expectations"][0]["expect"] == "that facts.api_token == 'expected-token'"
    said = ("expected that facts.api_token == 'expected-token', observed False"
            " (facts.api_token not shown (named like a secret))")
    assert step["message"] == said
    assert record["findings"][0]["title"] == f"Step 'login': {said}"
    assert "sk-live-4f9a8b7c6d5e" not in result.stdout
