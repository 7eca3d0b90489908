"""A Dockerfile's legacy `ENV NAME value` / `ARG NAME value` (a space, no "="), under a secret's name.

Before: `ENV HF_TOKEN abc123` and `ENV DB_PASSWORD my pass phrase` kept the
secret as a `cat Dockerfile` or `docker history --no-trunc` prints it; `ENV HF_TOKEN=...` was
masked. The value is the rest of the line (docs.docker.com/reference/dockerfile/#env: "ENV MY_VAR
my-value"). A `$VAR` / ARG reference and a non-secret name stay.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, secret_spans


@pytest.mark.parametrize("text, masked", [
    ("FROM python:3.11\nENV HF_TOKEN abc123xyz\nRUN pip install x\n", f"FROM python:3.11\nENV HF_TOKEN {MASK}\nRUN pip install x\n"),
    ("ENV DB_PASSWORD my pass phrase\n", f"ENV DB_PASSWORD {MASK}\n"),
    ('  ENV OPENAI_API_KEY "sk-local-1"', f'  ENV OPENAI_API_KEY "{MASK}"'),
    ("ARG HF_TOKEN abc123xyz\nENV HF_TOKEN $HF_TOKEN\n", f"ARG HF_TOKEN {MASK}\nENV HF_TOKEN $HF_TOKEN\n"),
])
def test_legacy_env_value_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "ENV HF_TOKEN $HF_TOKEN\n",
    "ENV HF_TOKEN ${HF_TOKEN}\n",
    "ENV HF_HOME /data/hf\n",
    "ENV MAX_NEW_TOKENS 512\n",
    "# set the ENV HF_TOKEN before running\n",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
