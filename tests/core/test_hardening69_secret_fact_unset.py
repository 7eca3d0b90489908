"""A secret-named fact that is None or '' is said as such when a check fails on it.

`that: facts.api_token is not none` failed because the token line was not printed, and the step
said "(facts.api_token = None, ...)", which the record's NAME=value mask turned into
"facts.api_token = ***REDACTED***": as if a token had been read, the reason of the failure hidden."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli


def _message(tmp_path, output: str, check: str) -> str:
    (tmp_path / "p.yaml").write_text(
        "name: t\nsteps:\n  - id: login\n    run: |\n"
        f"      echo '{output}'\n"
        "    capture:\n      - regex: 'token: (?P<api_token>\\S+)'\n      - regex: 'key=(?P<hf_api_key>\\S*)'\n"
        f"    expect:\n      - that: {check}\n")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    record = json.loads(result.stdout)
    assert record["findings"][0]["evidence"][0] == record["steps"][0]["message"]
    return record["steps"][0]["message"]


@pytest.mark.parametrize(("output", "check", "values"), [
    ("no token printed", "facts.api_token is not none and exit_code == 0", "facts.api_token is None, exit_code = 0"),
    ("key=", "facts.hf_api_key != '' and exit_code == 0", "facts.hf_api_key is '', exit_code = 0"),
    ("token: sk-live-4f9a8b7c6d5e", "facts.api_token == 'x' and exit_code == 0",
     "facts.api_token not shown (named like a secret), exit_code = 0"),
])
def test_the_value_of_a_secret_named_fact_that_holds_none_is_said(tmp_path, output, check, values):
    assert _message(tmp_path, output, check) == f"expected that {check}, observed False ({values})"
