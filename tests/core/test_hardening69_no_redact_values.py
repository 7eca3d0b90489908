"""--no-redact keeps secrets in run.json: a failed check's values keep them too.

With --no-redact, run.json's facts held `api_token: sk-live-...` in clear, but a failed `that:`
(and an `until:` that never held) said "facts.api_token not shown (named like a secret)": the one
value the check compared was hidden from the engineer who asked to see it. Redacted runs still hide it."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

SECRET = "sk-live-4f9a8b7c6d5e"


def _run(tmp_path, check: str, *flags: str) -> dict:
    (tmp_path / "p.yaml").write_text(
        "name: t\nsteps:\n  - id: login\n    run: |\n"
        f"      echo 'token: {SECRET}'\n      echo 'creds: {{\"password\": \"hunter22\"}}'\n"
        "    capture:\n      - regex: 'token: (?P<api_token>\\S+)'\n"
        "      - regex: 'creds: (?P<creds>.+)'\n        type: json\n" + check)
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json", *flags)
    assert result.code == 1, result.stderr
    return json.loads(result.stdout)


THAT = "    expect:\n      - that: facts.api_token == 'x' or facts.creds.user is defined or facts.creds == {}\n"
UNTIL = "    until: facts.api_token == 'x' or facts.creds == {}\n    retries: 1\n    retry_delay: 0\n"


@pytest.mark.parametrize(("check", "said"), [
    (THAT, "expected that facts.api_token == 'x' or facts.creds.user is defined or facts.creds == {}, observed False"),
    (UNTIL, "until \"facts.api_token == 'x' or facts.creds == {}\" was still false after 2 attempt(s)"),
])
def test_no_redact_names_the_secret_named_values(tmp_path, check, said):
    record = _run(tmp_path, check, "--no-redact")
    values = (f" (facts.api_token = '{SECRET}', facts.creds.user not set, facts.creds = {{'password': 'hunter22'}})"
              if check is THAT else f" (facts.api_token = '{SECRET}', facts.creds = {{'password': 'hunter22'}})")
    assert record["steps"][0]["message"] == said + values
    assert record["findings"][0]["evidence"][0] == said + values


@pytest.mark.parametrize("check", [THAT, UNTIL])
def test_a_redacted_run_still_hides_them(tmp_path, check):
    record = _run(tmp_path, check)
    message = record["steps"][0]["message"]
    assert "facts.api_token not shown (named like a secret)" in message
    assert "facts.creds = {'password': '***REDACTED***'}" in message
    assert SECRET not in json.dumps(record) and "hunter22" not in json.dumps(record)
