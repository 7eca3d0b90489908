"""A passphrase under its name and a password under `--passwd` / `--passphrase` flags, in text.

Before: is_secret_name masked a dict's `passphrase`, but the text kept `passphrase: hunter2`,
`SSH_KEY_PASSPHRASE=...`, and the flags `--passwd VALUE` (an older wget's `--http-passwd`)
and `--passphrase VALUE` outside gpg, in text and in an argv. A file's flag, a call and an empty
value stay.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, may_hold_secret, redact_text, redact_value, secret_spans

SECRET = "c0rrect-h0rse"


@pytest.mark.parametrize("text, masked", [
    (f"passphrase: {SECRET}\n", f"passphrase: {MASK}\n"),
    (f"export SSH_KEY_PASSPHRASE={SECRET}", f"export SSH_KEY_PASSPHRASE={MASK}"),
    (f'{{"key_passphrase": "{SECRET}"}}', f'{{"key_passphrase": "{MASK}"}}'),
    (f"wget --http-user bot --http-passwd {SECRET} http://mirror/x", f"wget --http-user bot --http-passwd {MASK} http://mirror/x"),
    (f"tool --passwd={SECRET}", f"tool --passwd={MASK}"),
    (f"signer --key k.pem --passphrase {SECRET} --out x", f"signer --key k.pem --passphrase {MASK} --out x"),
])
def test_secret_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "gpg --batch --passphrase-file /run/secrets/pp -d f.gpg",
    "key_passphrase = get_passphrase(cfg)",
    '"passphrase": ""',
    "signer --passphrase $PASSPHRASE",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


def test_argv_and_dict_agree() -> None:
    assert is_secret_name("passphrase")
    assert redact_value(["signer", "--passphrase", SECRET, "--passwd", SECRET, "--use-pipe", "a"]) == [
        "signer", "--passphrase", MASK, "--passwd", MASK, "--use-pipe", "a"]
