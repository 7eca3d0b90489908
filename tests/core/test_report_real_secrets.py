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


def test_a_fine_grained_github_token_alone_is_masked():
    # "github_pat_" holds no "gh": the prefilter once looked for it only where a "gh" was
    # elsewhere in the text (the token above has one in "abcdefghij"); a real token's random
    # tail seldom does. A token alone in an output, as `echo $GITHUB_PAT` or a credentials dump prints it.
    token = "github_pat_11ABCDEFG0123456789_" + "AbCdEfAbCdEf0123456789" * 3 + "ZyXwVu"
    assert "gh" not in token
    for text in (token, f"{token}\n", f"token {token} expires in 30 days"):
        redacted = redact_text(text)
        assert token[:20] not in redacted and MASK in redacted, text
        assert [text[a:b] for a, b in secret_spans(text)] == [token]


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
    # This thread's CPU time, not the wall clock: a loaded machine kept the worker off the CPU for
    # most of a second around a millisecond's work (seen: 0.85 s wall for 1 ms of CPU).
    started = time.thread_time()
    assert redact_text(output) == output
    assert time.thread_time() - started < 2.0


def _redact_ungated(text: str) -> str:
    from spec_debug import redact

    for pattern in redact._PATTERNS:
        text = pattern.sub(redact._mask_secret, text)
    return text


def test_the_cheap_gate_never_changes_what_is_masked():
    """redact_text and redact_value skip the substitutions for a text without a secret's
    literal; on secrets in every case and shape, mixed into ordinary evidence, the result must
    be exactly that of running every substitution."""
    import random

    rng = random.Random(5)
    secrets = ["HF_TOKEN=hf_abcdefghijklmnopqrstuvwx", "Api_Key: 'zz9'", "--Hf-Token X1y2", "PassWord=\"a b\"",
               "AUTHORIZATION: Basic dXNlcjpw", "Https://u:p4ss@h/x", "sshpass -p pw", "wandb login " + "a1" * 20,
               "SK-proj-abcdefghijklmnopqrstuvwx", "sk-proj-abcdefghijklmnopqrstuvwx", "ghp_" + "A1" * 12,
               "GITHUB_PAT_" + "a" * 30, "glpat-" + "B" * 22, "xoxp-1234567890ab", "AKIAIOSFODNN7EXAMPLE",
               "AIza" + "x" * 35, "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY-----",
               "access-key=abc", "SECRET=ſecret", "ſecret=v", "db_passwd: x"]
    plain = ["gen throughput (token/s): 54.8", "ssh root@gpu01", "--speculative-num-steps 1", "max_tokens=512",
             "eos_token: <|eot_id|>", "key", "ghost", "tokens/s", "::", "@", "/", "'", '"', "\n", " ", "="]
    for _ in range(3000):
        parts = rng.choices(plain, k=rng.randint(0, 6)) + rng.choices(secrets, k=rng.randint(0, 1))
        rng.shuffle(parts)
        text = rng.choice(["", " ", "\n"]).join(parts)
        assert redact_text(text) == _redact_ungated(text), text
        record = {"command": text, "host": "gpu01", "seq": 3, "value": 1.5, "hf_token": "x" if "p" in text else ""}
        assert redact_value([record] * 70) == [{k: (_redact_ungated(v) if k != "hf_token" or not v else MASK)
                                                if isinstance(v, str) else v for k, v in record.items()}] * 70
