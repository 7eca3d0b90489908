"""A template's reference with a default typed in, written bare after a secret's flag or name, kept
the default in clear: a playbook's command `vllm serve M --api-key {{ api_key | default('sk-local') }}`
was masked `--api-key ***REDACTED*** api_key | default('sk-local') }}`, the value ending at the first
space inside the braces, and the default, the key the server runs with when the var is unset, stood
after the mask (the quoted form was masked whole). Now the reference is masked to its closing braces,
Jinja's two or Mustache's three; a reference with no default stays."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


@pytest.mark.parametrize("text, masked", [
    ("vllm serve M --api-key {{ api_key | default('sk-local') }} --port 8000", f"vllm serve M --api-key {MASK} --port 8000"),
    ('--api-key={{ api_key | default("a b") }}', f"--api-key={MASK}"),
    ("token: {{ hf_token | default('hf_local_dev') }}", f"token: {MASK}"),
    ("password: {{{ db_password | default('s3cr3t') }}}", f"password: {MASK}"),
])
def test_default_masked_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert len(secret_spans(text)) == 1


@pytest.mark.parametrize("text", [
    "vllm serve M --api-key {{ api_key }} --port 8000",
    "token: {{ hf_token }}",
])
def test_reference_without_default_stays(text: str) -> None:
    assert redact_text(text) == text
