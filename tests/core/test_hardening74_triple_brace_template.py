"""A Mustache or Handlebars reference in triple braces (`password: {{{ db_password }}}`, the
unescaped form: mustache(5), "Variables"), under a secret's name, was masked from its first brace:
`password: ***REDACTED***}}}`, the reference mangled and the template unreadable, as a Jinja `{{
hf_token }}` no longer is. Now it stays whole, quoted or bare, after a name or a flag; a default
typed inside it is still masked."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


@pytest.mark.parametrize("text", [
    "password: {{{raw}}}",
    "password: {{{ db_password }}}",
    "api_key: '{{{ api_key }}}'",
    '"hf_token": "{{{hf_token}}}",',
    "--api-key {{{ api_key }}} --port 8000",
])
def test_reference_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("text, masked", [
    ("password: hunter2", f"password: {MASK}"),
    ("password: {{x", f"password: {MASK}"),
])
def test_literals_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked

