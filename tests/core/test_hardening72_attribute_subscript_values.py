"""A secret's name assigned an attribute or an item of something in code holds no literal.

Before: `api_key = self.api_key`, `token = cfg.token`, `hf_token = args.hf_token` were masked
(hiding where the key came from, what a 401 postmortem asks), and `HF_TOKEN = d[0]` read
`HF_TOKEN = ***REDACTED***]`, the mask eating the value's own "[" and leaving its "]". Now code's
reads stay readable; a value typed in is masked whole, its brackets with it.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


@pytest.mark.parametrize("text", [
    "api_key = self.api_key",
    "token = cfg.token",
    "        client = OpenAI(api_key=self.api_key, base_url=url)",
    "hf_token = args.hf_token",
    "token = tokenizer.eos_token",
    "HF_TOKEN = d[0]",
    "token = sys.argv[1]",
    'api_key = keys["openai"]',
    "token = d['x']",
    "token = self.tokens[0].value",
])
def test_code_read_stays_readable(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.parametrize("text, masked", [
    ("password = correct.horse", f"password = {MASK}"),
    ("HF_TOKEN=cfg.token", f"HF_TOKEN={MASK}"),
    ("token=d[0]", f"token={MASK}"),
    ("HF_TOKEN=abc[1] python3 serve.py", f"HF_TOKEN={MASK} python3 serve.py"),
    ("token = abc[0]x", f"token = {MASK}"),
    ("{hf_token: abc}", f"{{hf_token: {MASK}}}"),
    ("[hf_token: abc]", f"[hf_token: {MASK}]"),
    ("token=a[1][2]]", f"token={MASK}]"),
])
def test_literal_is_masked_whole(text: str, masked: str) -> None:
    assert redact_text(text) == masked
