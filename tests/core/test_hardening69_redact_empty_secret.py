"""An empty secret is no secret: `HF_TOKEN=""` is recorded as written, not `HF_TOKEN="***REDACTED***"`.

A token set empty (`export HF_TOKEN=""`, `docker run -e HF_TOKEN="" ...`, `--api-key ""`) is
what a "401 on a gated model" postmortem is about; masked, the record showed a token that looked
set. redact_value already keeps '' under a secret-named key (`{"hf_token": ""}`): the text
patterns now agree with it."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import redact_text, redact_value, secret_spans
from tests.conftest import run_cli


@pytest.mark.parametrize("text", [
    'export HF_TOKEN=""',
    "HF_TOKEN='' python3 serve.py",
    'hf_token: ""',
    '{"api_key": "", "port": 30000}',
    'python3 -m sglang.launch_server --api-key "" --port 30000',
    "--hf-token=''",
    '- name: HF_TOKEN\n  value: ""',
])
def test_an_empty_secret_is_left_as_written(text):
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize(("text", "masked"), [
    ('export HF_TOKEN="abc"', 'export HF_TOKEN="***REDACTED***"'),
    ("HF_TOKEN=' ' x", "HF_TOKEN='***REDACTED***' x"),
    ('--api-key "a b" --port 1', '--api-key "***REDACTED***" --port 1'),
    ("--api-key abc", "--api-key ***REDACTED***"),
    ('- name: HF_TOKEN\n  value: "x"', '- name: HF_TOKEN\n  value: "***REDACTED***"'),
])
def test_a_secret_with_a_value_is_still_masked(text, masked):
    assert redact_text(text) == masked


def test_the_text_and_the_structured_value_agree():
    assert redact_value({"hf_token": "", "cmd": 'HF_TOKEN="" x'}) == {"hf_token": "", "cmd": 'HF_TOKEN="" x'}


def test_a_run_records_the_empty_token_it_set(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "name: t\nsteps:\n  - id: gated\n    run: |\n      export HF_TOKEN=\"\"\n      test -n \"$HF_TOKEN\"\n")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    assert result.code == 1, result.stderr
    (step,) = json.loads(result.stdout)["steps"]
    assert step["command"] == 'export HF_TOKEN=""\ntest -n "$HF_TOKEN"\n'
