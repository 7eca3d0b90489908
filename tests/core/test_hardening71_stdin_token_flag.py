"""`gh auth login --with-token` reads its token from standard input (gh-auth-login(1): "--with-token
Read token from standard input"; its example `gh auth login --with-token < mytoken.txt`). The
flag pattern took the redirection for the flag's value: `--with-token ***REDACTED*** mytoken.txt`
(the file the token came from, the evidence, read as a masked token), `<<< TOKEN` masked the `<<<`
and kept the token, and `echo TOKEN | gh auth login --with-token` kept it."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

_TOKEN = "0123456789abcdef0123456789abcdef01234567"  # a classic 40-hex OAuth token: no ghp_ shape


@pytest.mark.parametrize("text", [
    "gh auth login --with-token < mytoken.txt",
    "gh auth login --with-token < .githubtoken --scopes repo,read:org",
    "python serve.py --api-key >> /tmp/serve.log",
    "vllm serve /m --api-key < /dev/null",
])
def test_a_redirection_is_no_flag_value(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("text, masked", [
    (f"echo {_TOKEN} | gh auth login --with-token",
     f"echo {MASK} | gh auth login --with-token"),
    (f"echo '{_TOKEN}' | gh auth login --hostname ghe.internal --with-token && gh auth status",
     f"echo '{MASK}' | gh auth login --hostname ghe.internal --with-token && gh auth status"),
    (f"printf '%s\\n' {_TOKEN} | gh auth login --with-token",
     f"printf '%s\\n' {MASK} | gh auth login --with-token"),
    (f"gh auth login --with-token <<< {_TOKEN}",
     f"gh auth login --with-token <<< {MASK}"),
    (f'gh auth login --with-token <<< "{_TOKEN}"; gh repo clone x',
     f'gh auth login --with-token <<< "{MASK}"; gh repo clone x'),
])
def test_the_token_fed_to_stdin_is_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "echo $GH_TOKEN | gh auth login --with-token",
    'gh auth login --with-token <<< "$GH_TOKEN"',
    "echo done | gh auth status",
    "echo hello | gh auth login --web",
])
def test_references_and_other_commands_stay(text: str) -> None:
    assert redact_text(text) == text


def test_a_real_flag_value_is_still_masked() -> None:
    assert redact_text("vllm serve /m --api-key sekrit < /dev/null") == f"vllm serve /m --api-key {MASK} < /dev/null"
