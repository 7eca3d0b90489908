"""A password that holds parentheses is no call's result.

Before: the computed-value guard read any `name(...)` at the start of a value as a call and left
it: YAML's `password: pa(ss)word` (text after the ")"), an env file's or compose file's
`DB_PASSWORD=pa(ss)` / `MYSQL_PASSWORD: Secr3t(x)` (an upper-case environment name: no call is
made there) and a flag's `--db-pass=pa(ss)` kept the password whole. A call in Python code
(`API_KEY = get_key()`, `login(token=get_token())`, `rope_pass = RotaryPass(cfg)`) stays readable.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


@pytest.mark.parametrize("text, masked", [
    ("password: pa(ss)word", f"password: {MASK}"),
    ("token = f(x)y", f"token = {MASK}"),
    ("DB_PASSWORD=pa(ss)", f"DB_PASSWORD={MASK}"),
    ("export PASSWORD=Secr3t(x) && ./start.sh", f"export PASSWORD={MASK} && ./start.sh"),
    ("HF_TOKEN_2=ab(cd)", f"HF_TOKEN_2={MASK}"),
    ("DB_PASS=pa(ss)", f"DB_PASS={MASK}"),
    ("    environment:\n      MYSQL_PASSWORD: Secr3t(x)\n", f"    environment:\n      MYSQL_PASSWORD: {MASK}\n"),
    ("app --db-pass=pa(ss) --port 1", f"app --db-pass={MASK} --port 1"),
    ("app --db_pass=get_pw()", f"app --db_pass={MASK}"),
])
def test_call_shaped_password_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "API_KEY = get_key()",
    "rope_pass = RotaryPass(cfg)",
    "token=fn(x)",
    "dbPass = get_pass(cfg)",
    "x = f(token=get_token()).y",
    '{"HF_TOKEN": get_token()}',
    "next_id = token = tokenizer.encode(prompt)[0]",
    "client = Client(api_key=load_key(path), timeout=5)",
])
def test_call_stays_readable(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
