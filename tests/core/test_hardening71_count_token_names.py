"""A count named after tokens (--max-token 512, MAX_NEW_TOKEN="512") and a numbered special token
(pad_token_2) are evidence, not secrets: masked, a launch command's 512 read ***REDACTED***.
Real tokens (--token VALUE, HF_TOKEN=..., --api-token X) stay masked."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value, secret_spans


@pytest.mark.parametrize("text", [
    "python -m sglang.launch_server --model-path /m --max-token 512 --port 30000",
    "python bench.py --max-new-token=128",
    "python gen.py --max_token 512",
    "python gen.py --min-token 1 --num-token 4",
    '{"name": "MAX_TOKEN", "value": "512"}',
    '- name: MAX_NEW_TOKEN\n  value: "512"',
    'MAX_TOKEN="512" python bench.py',
    'max_token: "512"',
    '{"max_new_token": "256"}',
    'pad_token_2 = "<pad>"',
    'tokenizer_config: {"pad_token_2": "<|pad|>"}',
    "--pad_token_2 '<pad>'",
])
def test_counts_and_numbered_special_tokens_stay_readable(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


def test_values_under_count_keys_stay() -> None:
    record = {"max_token": "512", "max_new_token": "128", "pad_token_2": "<pad>", "eos_token_1": "</s>"}
    assert redact_value(record) == record
    assert redact_value(["--max-token", "512", "--max-new-token", "64"]) == ["--max-token", "512", "--max-new-token", "64"]
    for name in ("max_token", "MAX_NEW_TOKEN", "num_token", "pad_token_2", "eos_token-1"):
        assert not is_secret_name(name), name


@pytest.mark.parametrize("text, masked", [
    ("vllm serve /m --token hf_abc", "vllm serve /m --token " + MASK),
    ("kubectl --api-token X get pods", "kubectl --api-token " + MASK + " get pods"),
    ("HF_TOKEN=abcdef python x.py", "HF_TOKEN=" + MASK + " python x.py"),
    ('{"name": "HF_TOKEN", "value": "512x"}', '{"name": "HF_TOKEN", "value": "' + MASK + '"}'),
    ("max_token_secret=abc", "max_token_secret=" + MASK),
    ("--hf-token-2 abc --max-token 512", "--hf-token-2 " + MASK + " --max-token 512"),
    ("MAX_ACCESS_TOKEN=abc", "MAX_ACCESS_TOKEN=" + MASK),
])
def test_real_tokens_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert redact_value({"hf_token_2": "x", "access_token": "y"}) == {"hf_token_2": MASK, "access_token": MASK}
    assert redact_value(["--api-token", "abc"]) == ["--api-token", MASK]
