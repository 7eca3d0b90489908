"""On an EC2 GPU host a session reads the HF token or the server's API key from AWS Secrets Manager:
`aws secretsmanager get-secret-value --secret-id vllm/api-key` prints {"ARN": ..., "Name": ...,
"SecretString": "<the secret>", ...} (SecretBinary, base64, for a binary one). The value stood in
clear in run.json, the step's artifact and an analysis: "SecretString" named no secret (camelCase
read as Secret_String, the name ending in String), and the value has no token shape. Now it is
masked, in text, in a parsed document and in a spilled stream; the other fields stay."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, is_secret_name, redact_text, redact_value

SECRET = "local-vllm-key-7f3a9c"
BLOB = "c2VjcmV0LWtleS1ieXRlcw=="

DOC = {
    "Name": "vllm/api-key",
    "VersionId": "a1b2c3d4-5678-90ab-cdef-EXAMPLE11111",
    "SecretString": SECRET,
    "VersionStages": ["AWSCURRENT"],
    "CreatedDate": "2026-12-07T10:00:00.000000+00:00",
}

# a secret stored as JSON, as `aws secretsmanager create-secret --secret-string '{"user":...}'` makes it
JSON_SECRET = '{"username":"svc","password":"Pa55w0rd!"}'


def _fields_kept(masked: dict, doc: dict, secret_key: str) -> None:
    assert masked[secret_key] == MASK
    assert {k: v for k, v in masked.items() if k != secret_key} == {k: v for k, v in doc.items() if k != secret_key}


@pytest.mark.parametrize("indent", [None, 4])
def test_get_secret_value_output(indent: int | None) -> None:
    text = json.dumps(DOC, indent=indent)
    _fields_kept(json.loads(redact_text(text)), DOC, "SecretString")


def test_secret_string_holding_json() -> None:
    doc = {**DOC, "SecretString": JSON_SECRET}
    masked = redact_text(json.dumps(doc, indent=4))
    assert "Pa55w0rd" not in masked and "svc" not in masked
    _fields_kept(json.loads(masked), doc, "SecretString")


def test_secret_binary() -> None:
    doc = {k: v for k, v in DOC.items() if k != "SecretString"} | {"SecretBinary": BLOB}
    _fields_kept(json.loads(redact_text(json.dumps(doc, indent=4))), doc, "SecretBinary")
    _fields_kept(redact_value(doc), doc, "SecretBinary")


def test_parsed_document() -> None:
    # a json: capture of the step's output is a fact; run.json holds it through redact_value
    _fields_kept(redact_value(DOC), DOC, "SecretString")
    assert is_secret_name("SecretString") and is_secret_name("secret_binary")


def test_spilled_stream() -> None:
    text = json.dumps(DOC, indent=4) + "\n"
    redactor = StreamRedactor()
    out = redactor.feed(text.encode()) + redactor.close()
    _fields_kept(json.loads(out.decode()), DOC, "SecretString")


@pytest.mark.parametrize("text", ["secret_strings = 3", "SecretStringParameter", '"SecretStringTemplate"'])
def test_other_names_stay(text: str) -> None:
    assert redact_text(text) == text
