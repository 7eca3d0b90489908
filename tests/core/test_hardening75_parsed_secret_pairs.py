"""A secret held as the `value` beside its name, parsed from JSON: a container's env read with
`kubectl get pod vllm -o json` ({"name": "VLLM_API_KEY", "value": "..."}: the API's EnvVar), an ECS
task definition's environment, `az keyvault secret show` ({"name": "hf-token", "value": ...}), and an
SSM parameter read with `aws ssm get-parameter --with-decryption` ({"Name": "/vllm/hf_token", "Type":
"SecureString", "Value": ...}). The text of those documents was masked, but once parsed (a step's
`json:` capture, a fact in run.json, redact_value) the value stood in clear: its key, "value", names
no secret. The SSM parameter's value stood in clear in text too. Now both are masked; the names,
the other variables and a `$(VAR)` reference stay."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value

KEY = "local-vllm-key-7f3a9c"

POD_ENV = [
    {"name": "VLLM_API_KEY", "value": KEY},
    {"name": "MODEL", "value": "meta-llama/Llama-3.1-8B-Instruct"},
    {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
    {"name": "DB_PASSWORD", "value": "$(DB_PASSWORD_FROM_SECRET)"},
    {"name": "EOS_TOKEN", "value": "</s>"},
]

MASKED_ENV = [
    {"name": "VLLM_API_KEY", "value": MASK},
    {"name": "MODEL", "value": "meta-llama/Llama-3.1-8B-Instruct"},
    {"name": "HF_TOKEN", "valueFrom": {"secretKeyRef": {"name": "hf", "key": "token"}}},
    {"name": "DB_PASSWORD", "value": "$(DB_PASSWORD_FROM_SECRET)"},
    {"name": "EOS_TOKEN", "value": "</s>"},
]


def test_pod_env_parsed() -> None:
    pod = {"spec": {"containers": [{"name": "vllm", "image": "vllm/vllm-openai:v0.11.0", "env": POD_ENV}]}}
    masked = redact_value(pod)
    assert masked == {"spec": {"containers": [{"name": "vllm", "image": "vllm/vllm-openai:v0.11.0", "env": MASKED_ENV}]}}
    assert redact_value(POD_ENV) == MASKED_ENV


def test_keyvault_secret_parsed() -> None:
    doc = {"attributes": {"enabled": True}, "id": "https://kv1.vault.azure.net/secrets/hf-token/0123",
           "name": "hf-token", "value": "S3cr3tPassw0rdXyz"}
    assert redact_value(doc) == {**doc, "value": MASK}
    assert list(redact_value(doc)) == list(doc)  # the keys in their order


SSM = {"Parameter": {"Name": "/prod/llm/serving", "Type": "SecureString", "Value": KEY, "Version": 3,
                     "LastModifiedDate": "2026-12-07T10:00:00.000000+00:00",
                     "ARN": "arn:aws:ssm:us-east-1:123456789012:parameter/prod/llm/serving", "DataType": "text"}}
SSM_MASKED = {"Parameter": {**SSM["Parameter"], "Value": MASK}}


@pytest.mark.parametrize("indent", [None, 4])
def test_ssm_secure_string_text(indent: int | None) -> None:
    assert json.loads(redact_text(json.dumps(SSM, indent=indent))) == SSM_MASKED


def test_ssm_parameters_list() -> None:
    plain = {"Name": "/prod/llm/model", "Type": "String", "Value": "meta-llama/Llama-3.1-8B-Instruct", "Version": 1}
    doc = {"Parameters": [SSM["Parameter"], plain], "InvalidParameters": []}
    want = {"Parameters": [SSM_MASKED["Parameter"], plain], "InvalidParameters": []}
    assert json.loads(redact_text(json.dumps(doc, indent=4))) == want
    assert redact_value(doc) == want


def test_ssm_parsed_and_streamed() -> None:
    assert redact_value(SSM) == SSM_MASKED
    redactor = StreamRedactor()
    out = redactor.feed(json.dumps(SSM, indent=4).encode()) + redactor.close()
    assert json.loads(out) == SSM_MASKED


def test_plain_parameter_and_pairs_stay() -> None:
    plain = {"Parameter": {"Name": "/prod/llm/model", "Type": "String", "Value": "meta-llama/Llama-3.1-8B-Instruct"}}
    assert redact_value(plain) == plain
    assert redact_text(json.dumps(plain)) == json.dumps(plain)
    pairs = [{"name": "max_tokens", "value": "512"}, {"name": "tokenizer", "value": "hf"}]
    assert redact_value(pairs) == pairs
