"""A secret written as a YAML block scalar (`hf_token: |` then the token on the line below) is masked.

Before: NAME=value read the block header "|" as the value and masked it, so a Kubernetes Secret's
`stringData:` or a compose file `cat`ed in a session showed `hf_token: ***REDACTED***` and, on the
next line, the token as typed: the mask said a secret was hidden while it stood right below.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, secret_spans

SECRET = "Zq8wPl0mNo41Wd3nT8rQ"


@pytest.mark.parametrize("text, masked", [
    (f"stringData:\n  hf_token: |\n    {SECRET}\n  model: meta-llama/Llama-3.1-8B\n",
     f"stringData:\n  hf_token: |\n    {MASK}\n  model: meta-llama/Llama-3.1-8B\n"),
    (f"SECRET_KEY: >-\n  {SECRET}\n  {SECRET[::-1]}\nport: 8000\n", f"SECRET_KEY: >-\n  {MASK}\nport: 8000\n"),
    (f"db_password: |  # rotated 2026-11\n  {SECRET}\n", f"db_password: |  # rotated 2026-11\n  {MASK}\n"),
    (f"api_key: |2\r\n    {SECRET}\r\n", f"api_key: |2\r\n    {MASK}\r\n"),
])
def test_a_block_scalar_secret_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked
    (span,) = secret_spans(text)
    assert SECRET in text[span[0]:span[1]]


@pytest.mark.parametrize("text", [
    "hf_token: |",  # no body
    "config.yaml: |\n  model: llama\n  port: 8000\n",  # not a secret's name
    "pad_token: |\n  <pad>\n",
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


def test_a_value_with_a_bar_is_still_one() -> None:
    assert redact_text(f"password: a|{SECRET}") == f"password: {MASK}"
