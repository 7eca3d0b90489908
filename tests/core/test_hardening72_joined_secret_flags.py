"""A secret flag spelt as one word (`--authtoken`, `--apikey`) and ngrok's authtoken argument.

Before: the flag patterns wanted a separator before "token" and inside "api-key", so `ngrok http
8000 --authtoken TOKEN`, `--apikey KEY` and `--accesstoken=...` kept the secret in text and in an
argv, and so did `ngrok config add-authtoken TOKEN` (the token is the command's argument), as a
session types it to reach a GPU box from outside. A count (`--max-token 5`) and a `$VAR` stay.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, redact_value, secret_spans

TOKEN = "2abcDEF123ghiJKL456mnoPQR789_stuVWX"


@pytest.mark.parametrize("text, masked", [
    (f"ngrok http 8000 --authtoken {TOKEN}", f"ngrok http 8000 --authtoken {MASK}"),
    (f"ngrok config add-authtoken {TOKEN}", f"ngrok config add-authtoken {MASK}"),
    (f"./ngrok authtoken {TOKEN} && ./ngrok http 30000", f"./ngrok authtoken {MASK} && ./ngrok http 30000"),
    (f'ngrok config add-authtoken "{TOKEN}"', f'ngrok config add-authtoken "{MASK}"'),
    (f"client --apikey {TOKEN} --port 1", f"client --apikey {MASK} --port 1"),
    (f"client --accesstoken={TOKEN}", f"client --accesstoken={MASK}"),
    (f"client --refreshtoken {TOKEN}", f"client --refreshtoken {MASK}"),
])
def test_secret_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "ngrok config add-authtoken $NGROK_AUTHTOKEN",
    "client --authtoken --port 1",
    "bench --max-token 5 --maxtoken 6",
    "ngrok http 8000 --log stdout",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


def test_argv_word_after_joined_flag_is_masked() -> None:
    assert redact_value(["ngrok", "http", "8000", "--authtoken", TOKEN, "--apikey", "k1", "--region", "eu"]) == [
        "ngrok", "http", "8000", "--authtoken", MASK, "--apikey", MASK, "--region", "eu"]
