"""A secret set by fish's `set -gx NAME VALUE` or csh's `setenv NAME VALUE` is masked.

fish sets a variable with a space between the name and the value (fishshell.com cmds/set:
`set [-Uflg] NAME [VALUE ...]`; its FAQ: `set -gx key value`), so NAME=value never read it:
`set -gx HF_TOKEN ...` was masked only where the value had a token's shape, and `set -x
DB_PASSWORD ...`, `set -Ux SECRET_KEY ...`, `setenv OPENAI_API_KEY ...` stood as typed.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text

SECRET = "Zq8wPl0mNo41"


@pytest.mark.parametrize("text, masked", [
    (f"set -gx HF_TOKEN {SECRET}", f"set -gx HF_TOKEN {MASK}"),
    (f"set -x DB_PASSWORD {SECRET}; python3 serve.py", f"set -x DB_PASSWORD {MASK}; python3 serve.py"),
    (f'set -Ux SECRET_KEY "{SECRET} x"', f'set -Ux SECRET_KEY "{MASK}"'),
    (f"set --global --export OPENAI_API_KEY {SECRET}", f"set --global --export OPENAI_API_KEY {MASK}"),
    (f"setenv OPENAI_API_KEY {SECRET}", f"setenv OPENAI_API_KEY {MASK}"),
    (f"set -gx HF_TOKEN_2 '{SECRET}' && python3 -m sglang.launch_server",
     f"set -gx HF_TOKEN_2 '{MASK}' && python3 -m sglang.launch_server"),
])
def test_a_fish_or_csh_secret_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "set -e HF_TOKEN",  # erased: no value
    "set -q HF_TOKEN; or echo missing",
    "set HF_TOKEN and retry",  # prose
    "set -gx HF_TOKEN (cat ~/.cache/huggingface/token)",  # fish's command substitution
    "set -gx HF_TOKEN $HUGGING_FACE_HUB_TOKEN",
    "set -x\nHF_TOKEN=$TOKEN_FROM_VAULT python3 serve.py",  # bash's xtrace, then a reference
    "set -gx MAX_TOKENS 512",
    "set -gx PAD_TOKEN x",
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
