"""A secret's name spelt with hyphens, as an HTTP header is (`X-Api-Key`, `api-key`, `access-key`,
`private-key`), is a secret's name: is_secret_name's own docstring names `api-key` as one.

Before: the rule took `api_key` / `apikey` but not `api-key`, so a dict of request headers parsed
from JSON (a fact captured with `json:` from a script that prints the headers it sends) kept
{"X-Api-Key": "..."} in run.json's facts and in the reports, while the same text unparsed was masked.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_value
from tests.conftest import only_run, run_cli

SECRET = "local-Wd3nT8rQ1yHs"


@pytest.mark.parametrize("name", ["api-key", "X-Api-Key", "x-api-key", "X-API-KEY", "access-key", "private-key",
                                  "x-api-key-2"])
def test_a_hyphenated_secret_name_is_a_secret_name(name: str) -> None:
    assert is_secret_name(name)
    assert redact_value({"headers": {name: SECRET, "Accept": "application/json"}}) == \
        {"headers": {name: MASK, "Accept": "application/json"}}


@pytest.mark.parametrize("name", ["api-keys", "rapid-key", "key-file", "public-key", "X-Request-Id"])
def test_other_hyphenated_names_stay(name: str) -> None:
    assert not is_secret_name(name)
    assert redact_value({name: SECRET}) == {name: SECRET}


def test_a_captured_dict_of_headers_is_masked_in_run_json(tmp_path) -> None:
    (tmp_path / "p.yaml").write_text(f"""\
name: p
steps:
  - id: headers
    run: |
      echo '{{"headers": {{"X-Api-Key": "{SECRET}", "Accept": "application/json"}}}}'
    capture:
      - json: headers
        name: sent
""", encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    assert record["steps"][0]["facts"]["sent"] == {"X-Api-Key": MASK, "Accept": "application/json"}
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in run_dir.rglob("*") if p.is_file())
    assert SECRET not in written and SECRET not in json.dumps(record)
