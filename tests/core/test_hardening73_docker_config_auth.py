"""After `docker login nvcr.io -u '$oauthtoken'` (the NGC key piped to --password-stdin), a session
that checks why the vLLM image will not pull prints `cat ~/.docker/config.json`: with no credential
helper, docker keeps each registry's `"auth"`, the base64 of user:password, so the NGC key stood in
the run's output in clear, as in a parsed config. Now each registry's auth is masked where the
config's "auths" is; an `auth` elsewhere (whoami's "auth": {...}) and the config's other fields stay."""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, redact_text, redact_value

AUTH = base64.b64encode(b"$oauthtoken:nvapi-" + b"Q7x9" * 16).decode()
CONFIG = {"auths": {"nvcr.io": {"auth": AUTH}, "ghcr.io": {"auth": base64.b64encode(b"bob:s3cret-pass").decode()},
                    "https://index.docker.io/v1/": {}},
          "credsStore": "", "currentContext": "default"}


@pytest.mark.parametrize("dump", [lambda c: json.dumps(c, indent="\t"), json.dumps])  # docker writes tabs
def test_config_text(dump) -> None:
    masked = json.loads(redact_text(dump(CONFIG)))
    assert masked == {"auths": {"nvcr.io": {"auth": MASK}, "ghcr.io": {"auth": MASK}, "https://index.docker.io/v1/": {}},
                      "credsStore": "", "currentContext": "default"}


def test_config_parsed() -> None:
    assert redact_value(CONFIG) == {"auths": {"nvcr.io": {"auth": MASK}, "ghcr.io": {"auth": MASK},
                                              "https://index.docker.io/v1/": {}},
                                    "credsStore": "", "currentContext": "default"}


@pytest.mark.parametrize("text", [
    json.dumps({"auth": {"type": "access_token", "accessToken": {"displayName": "ci", "role": "read"}}}),
    json.dumps({"auth": "Ym9iOnMzY3JldC1wYXNz"}),  # no docker config around it
    json.dumps({"auths": {"nvcr.io": {}}, "credsStore": "desktop"}),
])
def test_other_auth_stays(text: str) -> None:
    assert redact_text(text) == text
