"""A GPU cluster pulls its vLLM or NIM image from nvcr.io with a registry Secret (`kubectl create
secret docker-registry ngc-pull --docker-username='$oauthtoken' --docker-password=nvapi-...`). A
session that checks it (`kubectl get secret ngc-pull -o yaml`) printed `.dockerconfigjson:
eyJhdXRocyI6...`: the docker config in base64, the NGC key and the `auth` (base64 of user:key)
inside, in clear; no dots, so the JWT shape did not read it. Now the encoded config is masked."""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, redact_text, redact_value, secret_spans

NGC_KEY = "nvapi-" + "Q7x9" * 16


def _dockerconfigjson(compact: bool) -> str:
    """As kubectl builds it (compact JSON) or as a hand-written manifest (json.dumps' spacing)."""
    auth = base64.b64encode(f"$oauthtoken:{NGC_KEY}".encode()).decode()
    config = {"auths": {"nvcr.io": {"username": "$oauthtoken", "password": NGC_KEY, "auth": auth}}}
    text = json.dumps(config, separators=(",", ":")) if compact else json.dumps(config)
    return base64.b64encode(text.encode()).decode()


@pytest.mark.parametrize("compact", [True, False])
def test_secret_yaml(compact: bool) -> None:
    encoded = _dockerconfigjson(compact)
    text = (f"apiVersion: v1\ndata:\n  .dockerconfigjson: {encoded}\nkind: Secret\nmetadata:\n  name: ngc-pull\n"
            "type: kubernetes.io/dockerconfigjson\n")
    assert redact_text(text) == text.replace(encoded, MASK)


def test_secret_json_and_dict() -> None:
    encoded = _dockerconfigjson(True)
    doc = {"apiVersion": "v1", "kind": "Secret", "data": {".dockerconfigjson": encoded},
           "type": "kubernetes.io/dockerconfigjson"}
    assert json.loads(redact_text(json.dumps(doc)))["data"] == {".dockerconfigjson": MASK}
    assert redact_value(doc)["data"] == {".dockerconfigjson": MASK}


@pytest.mark.parametrize("text", [
    "eyJhdXRocyI6 is how the base64 of a docker config starts",
    'echo "$CFG" | base64 -d',
    "deyJhdXRocyI6abc",
])
def test_no_config_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
