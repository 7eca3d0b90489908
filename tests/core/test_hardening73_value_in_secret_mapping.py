"""A secret held as the `value` of a mapping stood in clear. `terraform output -json` prints each
output as {"sensitive": true, "type": "string", "value": ...}, the value in plain text, so a
session that reads the endpoint and the token its infra module made got `"hf_token": {...,
"value": "hf_..."}` into the run and the postmortem; YAML's flow `token: { value: abc }` the same.
`az storage account keys list` prints [{"keyName": "key1", "permissions": "FULL", "value": KEY}]:
the account key (every blob of the account) in clear. NAME=value read the name and a "{" (a
mapping, no value) and the inner key `value` names no secret. Now the value is masked, in text,
in a streamed output and in a parsed dict; a mapping under another name keeps its value."""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value, secret_spans

TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456"
KEY1 = base64.b64encode(bytes(range(7, 71))).decode()  # 88 characters, as Azure's account keys
KEY2 = base64.b64encode(bytes(range(90, 154))).decode()

# terraform output -json (sorted keys: sensitive, type, value)
TF_OUTPUTS = {
    "db_password": {"sensitive": True, "type": "string", "value": "Pa55-w0rd!"},
    "endpoint": {"sensitive": False, "type": "string", "value": "http://10.0.0.5:8000/v1"},
    "hf_token": {"sensitive": True, "type": "string", "value": TOKEN},
}
TF_MASKED = {
    "db_password": {"sensitive": True, "type": "string", "value": MASK},
    "endpoint": {"sensitive": False, "type": "string", "value": "http://10.0.0.5:8000/v1"},
    "hf_token": {"sensitive": True, "type": "string", "value": MASK},
}
# az storage account keys list --account-name ckpts (JSON, the CLI's default output)
AZ_KEYS = [
    {"creationTime": "2024-05-01T10:00:00.000000+00:00", "keyName": "key1", "permissions": "FULL", "value": KEY1},
    {"creationTime": "2024-05-01T10:00:00.000000+00:00", "keyName": "key2", "permissions": "FULL", "value": KEY2},
]
AZ_MASKED = [{**entry, "value": MASK} for entry in AZ_KEYS]


@pytest.mark.parametrize("indent", [2, None])
def test_terraform_output_json(indent) -> None:
    text = json.dumps(TF_OUTPUTS, indent=indent)
    assert json.loads(redact_text(text)) == TF_MASKED
    assert "Pa55-w0rd!" not in redact_text(text)


@pytest.mark.parametrize("indent", [2, None])
def test_az_storage_account_keys_list(indent) -> None:
    text = json.dumps(AZ_KEYS, indent=indent)
    masked = redact_text(text)
    assert json.loads(masked) == AZ_MASKED
    assert KEY1[:20] not in masked and KEY2[:20] not in masked


@pytest.mark.parametrize("text, masked", [
    ("token: { value: abc123def }", f"token: {{ value: {MASK} }}"),
    ('"api_key": {"value": "s3cret"}', f'"api_key": {{"value": "{MASK}"}}'),
    ("'client_secret': {'value': 'x9y8z7'}, 'region': 'eu'", f"'client_secret': {{'value': '{MASK}'}}, 'region': 'eu'"),
])
def test_flow_mapping_under_secret_name(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    '"model": {"value": "meta-llama/Llama-3.1-8B-Instruct"}',  # no secret's name
    '"eos_token": {"content": "</s>", "value": "x"}',  # a tokenizer's special token
    "token: { value: $HF_TOKEN }",  # a reference the shell fills in
    '"api_key": {"sensitive": true, "type": "string", "value": null}',  # no value set
    '{"keyName": "key1", "permissions": "FULL"}',  # no value in it
    '"hf_token": {"type": "string"}, "max_len": {"value": 4096}',  # "value" of another mapping
])
def test_no_secret_kept(text: str) -> None:
    assert redact_text(text) == text


def test_stream_masks_like_whole() -> None:
    data = (("x" * 70 + "\n") * 2000 + json.dumps(TF_OUTPUTS, indent=2) + "\n" + json.dumps(AZ_KEYS, indent=2)
            + "\n" + ("y" * 70 + "\n") * 2000).encode()
    stream = StreamRedactor()
    out = b"".join(stream.feed(data[at:at + 4096]) for at in range(0, len(data), 4096)) + stream.close()
    assert out.decode() == redact_text(data.decode())
    assert TOKEN.encode() not in out and KEY1.encode() not in out


def test_spans_cover_the_value() -> None:
    text = json.dumps(AZ_KEYS[0])
    at = text.index(KEY1)
    assert (at - 1, at + len(KEY1) + 1) in secret_spans(text) or (at, at + len(KEY1)) in secret_spans(text)


def test_parsed_dicts() -> None:
    assert redact_value(TF_OUTPUTS) == TF_MASKED
    assert redact_value(AZ_KEYS) == AZ_MASKED
    assert redact_value({"tf": {"outputs": TF_OUTPUTS}}) == {"tf": {"outputs": TF_MASKED}}
    kept = {"model": {"value": "llama"}, "accessToken": {"displayName": "ci", "role": "read"}}
    assert redact_value(kept) == kept
