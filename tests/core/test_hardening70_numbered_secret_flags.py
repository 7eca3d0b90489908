"""A numbered secret flag and its value (`--api-key-2 VALUE`, `--token2 VALUE`).

The flag pattern (and its cheap gates "-token "/"-key ") wanted the flag to end in the secret
word, so a second key passed to a server or a script kept its value in clear, in one string and
in a command kept as its words, while `HF_TOKEN_2=...` and a value under `api_key_2` are masked.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, redact_value

SECRET = "Wd3nT8rQ1yHs"


@pytest.mark.parametrize("text, masked", [
    (f"vllm serve m --api-key-2 {SECRET} --port 8000", f"vllm serve m --api-key-2 {MASK} --port 8000"),
    (f"python3 bench.py --token2 {SECRET}", f"python3 bench.py --token2 {MASK}"),
    (f"python3 bench.py --hf_token_2 '{SECRET}'", f"python3 bench.py --hf_token_2 '{MASK}'"),
    (f'./login.sh --password-2 "{SECRET} x"', f'./login.sh --password-2 "{MASK}"'),
    (f"./svc --client-secret3 {SECRET}", f"./svc --client-secret3 {MASK}"),
])
def test_a_numbered_flag_value_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "--max-tokens-2 512",
    "--token2 $HF_TOKEN",
    "--num-token-ids 3",
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


def test_a_numbered_flag_in_an_argv_masks_the_next_word() -> None:
    argv = ["vllm", "serve", "m", "--api-key-2", SECRET, "--token2", SECRET + "x", "--max-tokens-2", "5"]
    assert redact_value(argv) == ["vllm", "serve", "m", "--api-key-2", MASK, "--token2", MASK, "--max-tokens-2", "5"]
