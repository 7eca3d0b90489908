"""A secret's name assigned the result of a call, in the code an agent writes or a traceback
quotes (`token = f(x)`, `api_key = get_key()`, `rope_pass = RotaryPass(cfg)`): no secret is typed
there, and masked the line read `token = ***REDACTED***`, hiding what was called. A literal
typed in stays masked, as does a token shape inside the call."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


@pytest.mark.parametrize("text", [
    "rope_pass = RotaryPass(cfg)",
    "token = f(x)",
    "api_key = get_key()",
    "next_id = token = tokenizer.encode(prompt)",
    "api_key = self.config.get_key(name)",
    "token = secrets.token_hex(16)",
    "    password = getpass.getpass(prompt='Password: ')",
    "login(token=get_token())",
    '{"api_key": load_key(path)}',
])
def test_call_result_stays_readable(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("text, masked", [
    ("token = 'abc'", f"token = '{MASK}'"),
    ('token = "f(x)"', f'token = "{MASK}"'),
    ("api_key = sekrit", f"api_key = {MASK}"),
    ("DB_PASS=hunter2", f"DB_PASS={MASK}"),
    # an opening parenthesis closed nowhere on the line is no call
    ("token = abc(", f"token = {MASK}"),
    # a value that starts with no name
    ("password = (hunter2)", f"password = {MASK}"),
])
def test_literals_stay_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_token_shape_inside_call_is_masked() -> None:
    token = "hf_" + "AbCdEfGhIjKlMnOpQrStUv"
    assert redact_text(f"token = login({token})") == f"token = login({MASK})"


@pytest.mark.parametrize("text, masked", [
    # tight to the "=" and a one-letter name: the value's own text (hardening69 pins it)
    ("PASSWORD=a(b)", f"PASSWORD={MASK}"),
    ("token = f(x)", "token = f(x)"),
    ("token=fn(x)", "token=fn(x)"),
    ("token=m.f(x)", "token=m.f(x)"),
])
def test_one_letter_tight_value(text: str, masked: str) -> None:
    assert redact_text(text) == masked
