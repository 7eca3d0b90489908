"""NAME=value with a number after the secret word (`HF_TOKEN_2=...`, `--var mongo_password_2=...`).

The NAME=value pattern wanted the name to end in the secret word right before the "=", so a
second token kept beside the first (`export HF_TOKEN_2=...`, `DB_PASSWORD2=...`) and the
`--var mongo_password_2=PASS` a user types to run a distilled playbook that asks for a second
password were shown as typed by analyze and in a run's reports, while redact_value masks a value
under the same name. Counts and sizes named like tokens stay (`max_tokens_2=512`).
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, may_hold_secret, redact_text

SECRET = "Wd3nT8rQ1yHs"


@pytest.mark.parametrize("text, masked", [
    (f"export HF_TOKEN_2={SECRET}", f"export HF_TOKEN_2={MASK}"),
    (f"export MONGO_PASSWORD_2={SECRET} && mongosh", f"export MONGO_PASSWORD_2={MASK} && mongosh"),
    (f"DB_PASSWORD2='{SECRET}' ./migrate.sh", f"DB_PASSWORD2='{MASK}' ./migrate.sh"),
    (f"spec-debug run distilled.yaml --var mongo_password={SECRET} --var mongo_password_2={SECRET}x",
     f"spec-debug run distilled.yaml --var mongo_password={MASK} --var mongo_password_2={MASK}"),
    (f'{{"api_key_2": "{SECRET}"}}', f'{{"api_key_2": "{MASK}"}}'),
    (f"OPENAI_API_KEY_3: {SECRET}", f"OPENAI_API_KEY_3: {MASK}"),
    (f"cookie_secret_2={SECRET}", f"cookie_secret_2={MASK}"),
])
def test_a_numbered_secret_name_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "max_tokens_2=512",
    "num_tokens_2=abc",
    "TOKEN_2: 512",
    "draft_token_1=0.73",
    "token_1234=abcdef",
    "HF_TOKEN_2=$HF_TOKEN",
    "api_key_2=",
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("name", ["HF_TOKEN_2", "mongo_password_2", "DB_PASSWORD2", "api_key_2", "OPENAI_API_KEY_3"])
def test_the_text_and_the_key_rule_agree(name: str) -> None:
    assert is_secret_name(name)
    assert redact_text(f"{name}={SECRET}") == f"{name}={MASK}"
