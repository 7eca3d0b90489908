"""A YAML comment between a secret's name and its value (YAML 1.2.2 6.6: a "#" after a space, or a
line of its own) was read as the value: `password:  # from vault` then `  abc123` was masked
`password:  ***REDACTED*** from vault` and the password on the next line stood in clear; `hf_token:  #
set below` alone (no value: null) had its "#" masked. Now the comment stays and the value after it,
if any, is masked; a "#" inside a value (`PASSWORD=abc#1`, `password: #hunter2`) is still the value's."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text


@pytest.mark.parametrize("text, masked", [
    ("password:  # from vault\n  abc123\n", f"password:  # from vault\n  {MASK}\n"),
    ("hf_token:\n  # read-only, for the gated target\n  hf-ro-value-1\nmodel: x\n",
     f"hf_token:\n  # read-only, for the gated target\n  {MASK}\nmodel: x\n"),
    ("password: abc # rotated monthly", f"password: {MASK} # rotated monthly"),
    ("PASSWORD=abc#1", f"PASSWORD={MASK}"),
    ("password: #hunter2", f"password: {MASK}"),
])
def test_value_masked_comment_kept(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "hf_token:   # set below\n",
    "password: # from vault\nmodel: x\n",
])
def test_comment_alone_stays(text: str) -> None:
    assert redact_text(text) == text
