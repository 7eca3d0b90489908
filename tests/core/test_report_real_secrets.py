"""Secrets as they really appear in commands and outputs, and evidence that only looks like one.

Token shapes: GitHub (github.blog 2021-04-05, "Behind GitHub's new authentication token
formats"), GitLab PATs, Slack, AWS (AKIA/ASIA), Google API keys; the documented example AWS
keys from the AWS docs. Non-secrets: a Llama-3 tokenizer_config.json, launch flags, ssh targets.
"""

from __future__ import annotations

import json
import time

import pytest

from spec_debug.redact import MASK, redact_text, redact_value, secret_spans


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ("export HTTPS_PROXY=http://alice:hunter2pass@proxy.corp:3128", "hunter2pass"),
        ("git clone https://oauth2:glpat-AbCdEfGhIjKlMnOpQrSt@gitlab.example.com/ml/drafter.git", "glpat-AbCdEfGhIjKlMnOpQrSt"),
        ("psql postgresql://admin:pa55w0rd@db.internal:5432/evals", "pa55w0rd"),
        ("sshpass -p 'S3cr3t!x' ssh root@gpu01 nvidia-smi", "S3cr3t!x"),
        ("sshpass -p S3cr3tx ssh root@gpu01", "S3cr3tx"),
        ('{"hf_token": "plainvalue123", "revision": "main"}', "plainvalue123"),
        ("curl -H 'x-api-key: abcdef0123456789abcdef' https://api.example.com", "abcdef0123456789abcdef"),
        ('curl -H "PRIVATE-TOKEN: Zx9yWv8uTs7rQp6o" https://gitlab.example.com/api/v4/projects', "Zx9yWv8uTs7rQp6o"),
        ("git push https://github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN@github.com/o/r", "github_pat_11ABCDEFG"),
        ("aws_access_key_id = ASIAIOSFODNN7EXAMPLE", "ASIAIOSFODNN7EXAMPLE"),
        ("SLACK_WEBHOOK_BOT=xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx", "xoxb-123456789012"),
        ("wandb login 0123456789abcdef0123456789abcdef01234567", "0123456789abcdef0123456789abcdef01234567"),
        ('curl -s -H "Authorization: Bearer eyJhbGciOi.J9.sig" http://127.0.0.1:30000/v1/models', "eyJhbGciOi.J9.sig"),
    ],
)
def test_real_secrets_are_masked(text, secret):
    redacted = redact_text(text)
    assert secret not in redacted and MASK in redacted
    # the quotes around a value survive, so a command or a JSON line keeps its shape
    assert redacted.count('"') == text.count('"') and redacted.count("'") == text.count("'")
    assert [text[a:b].strip("'\"") for a, b in secret_spans(text)][0].startswith(secret[:8])


LLAMA3_TOKENIZER_CONFIG = {
    "bos_token": "<|begin_of_text|>", "eos_token": "<|eot_id|>", "pad_token": "<|finetune_right_pad_id|>",
    "clean_up_tokenization_spaces": True, "model_max_length": 131072, "tokenizer_class": "PreTrainedTokenizerFast",
}


@pytest.mark.parametrize(
    "text",
    [
        json.dumps(LLAMA3_TOKENIZER_CONFIG),
        "eos_token: <|eot_id|>",
        "ssh -J bastion ubuntu@10.1.230.174 'cat /data/eagle3/config.json'",
        "rsync -av root@gpu01:/data/ckpt/ ./ckpt/ && git clone git@github.com:sgl-project/SpecForge.git",
        "curl http://127.0.0.1:30000/v1/completions -d '{\"max_tokens\": 128}'",
        "python -m sglang.launch_server --speculative-num-draft-tokens 4 --speculative-token-map /m/t.pt",
    ],
)
def test_evidence_that_looks_like_a_secret_is_kept(text):
    assert redact_text(text) == text


def test_tokenizer_special_tokens_in_facts_are_kept():
    assert redact_value(LLAMA3_TOKENIZER_CONFIG) == LLAMA3_TOKENIZER_CONFIG
    assert redact_value({"hf_token": "x", "eos_token": "</s>"}) == {"hf_token": MASK, "eos_token": "</s>"}


@pytest.mark.parametrize("output", [
    "-" * 65536,                      # a separator line printed by a script
    ("-" * 200 + "\n") * 300,         # pandas / pip list style rulers
    "a-" * 32768,                     # hyphenated ids run together (a vocabulary dump)
])
def test_redaction_of_long_runs_of_name_characters_is_linear(output):
    """Every step's output is redacted before run.json is written; a pattern that backtracks
    quadratically on a long run held the whole run (16 kB of 'a-a-a-' took 12 s, 64 kB of
    dashes minutes)."""
    started = time.perf_counter()
    assert redact_text(output) == output
    assert time.perf_counter() - started < 2.0
