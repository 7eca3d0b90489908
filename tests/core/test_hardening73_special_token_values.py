"""A session that compares the drafter's vocabulary with a multimodal or reasoning target prints its
tokenizer_config.json / processor_config.json: `"image_token": "<|image_pad|>"`, `"video_token":
"<|video_pad|>"` (Qwen2-VL), `"boi_token": "<start_of_image>"` (Gemma 3), a reasoning parser's
`think_end_token = "</think>"`. Their names end in "token", so each value read ***REDACTED***, in the
text and in a parsed config: the special tokens the check is about were gone. Now a value that is a
special token's literal, under a name ending in "token", stays; a secret under such a name, and an
angle-bracketed value under a password's or a key's name, are still masked."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, redact_text, redact_value, secret_spans

# excerpts of the configs as the Hub serves them
QWEN2_VL_PROCESSOR = {"processor_class": "Qwen2VLProcessor", "image_token": "<|image_pad|>",
                      "video_token": "<|video_pad|>", "vision_start_token": "<|vision_start|>",
                      "vision_end_token": "<|vision_end|>"}
GEMMA3_TOKENIZER = {"boi_token": "<start_of_image>", "eoi_token": "<end_of_image>",
                    "image_token": "<image_soft_token>", "eos_token": "<eos>", "model_max_length": 131072}


@pytest.mark.parametrize("config", [QWEN2_VL_PROCESSOR, GEMMA3_TOKENIZER])
def test_config_text_and_dict_stay(config: dict) -> None:
    for text in (json.dumps(config), json.dumps(config, indent=2)):
        assert redact_text(text) == text
        assert secret_spans(text) == []
    assert redact_value(config) == config


@pytest.mark.parametrize("text", [
    'think_start_token = "<think>"',
    "think_end_token='</think>'",
    "--reasoning-parser deepseek_r1 # think_end_token: </think>",
    "image_token_2: <image>",
])
def test_code_and_yaml_stay(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("text, masked", [
    ('{"image_token": "<|image_pad|>", "hf_token": "s3cr3t-value"}', f'{{"image_token": "<|image_pad|>", "hf_token": "{MASK}"}}'),
    ('password: "<Secr3t>"', f'password: "{MASK}"'),
    ('api_key: "<k3y>"', f'api_key: "{MASK}"'),
    ('token: "<abc>def"', f'token: "{MASK}"'),
])
def test_secrets_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_dict_secrets_still_masked() -> None:
    assert redact_value({"image_token": "<image>", "password": "<Secr3t>", "hf_token": "s3cr3t-value"}) == \
        {"image_token": "<image>", "password": MASK, "hf_token": MASK}
