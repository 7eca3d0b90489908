"""A JSON Web Token printed bare is masked: `kubectl create token default` prints a service
account's bearer token alone on a line, `gcloud auth print-identity-token` an identity token, and
a script prints the one it sends to the gateway in front of the server.

Before: a JWT was masked only after a name (`TOKEN=`, "access_token":) or `Authorization: Bearer`;
bare in a step's output, in a query string (`?jwt=...`) or a log line it stood in run.json, the
reports and what analyze shows. A token with no signature (alg "none") grants nothing and stays.
"""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, StreamRedactor, may_hold_secret, redact_text, redact_value, secret_spans


def _b64(obj: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode()).rstrip(b"=").decode()


HEADER = _b64({"alg": "RS256", "kid": "Zk3uWq8pRt5Ny2"})
PAYLOAD = _b64({"aud": ["https://kubernetes.default.svc"], "sub": "system:serviceaccount:llm:default", "exp": 1790000000})
SIGNATURE = "Wd3nT8rQ1yHs_Zq8wPl0mNo41-Qm7vTz2pLx9Wk4Ab"
JWT = f"{HEADER}.{PAYLOAD}.{SIGNATURE}"


@pytest.mark.parametrize("text, masked", [
    (JWT, MASK),
    (f"{JWT}\n", f"{MASK}\n"),
    (f"$ kubectl create token default -n llm --duration 1h\n{JWT}\n",
     f"$ kubectl create token default -n llm --duration 1h\n{MASK}\n"),
    (f'curl -s "http://127.0.0.1:8000/v1/models?jwt={JWT}"', f'curl -s "http://127.0.0.1:8000/v1/models?jwt={MASK}"'),
    (f"gateway: rejected {JWT} (expired)", f"gateway: rejected {MASK} (expired)"),
])
def test_a_bare_jwt_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


def test_a_jwt_in_a_record_and_a_stream_is_masked() -> None:
    assert redact_value({"stdout": f"{JWT}\n", "exit_code": 0}) == {"stdout": f"{MASK}\n", "exit_code": 0}
    assert secret_spans(f"token: {JWT}") == [(7, 7 + len(JWT))]
    stream = StreamRedactor()
    out = stream.feed(("x" * 70_000 + "\n" + JWT + "\n").encode()) + stream.close()
    assert out.decode() == "x" * 70_000 + "\n" + MASK + "\n"


@pytest.mark.parametrize("text", [
    f"{HEADER}.{PAYLOAD}.",  # alg "none": no signature
    "eyJhbGciOi.J9.sig",  # too short to be a token
    "reyJx1234567890.ey1234567890.abcdefghijklm",  # not at a word's start
    "model: eyJ-tiny, eyes: 2",
])
def test_what_is_no_jwt_stays(text: str) -> None:
    assert redact_text(text) == text
