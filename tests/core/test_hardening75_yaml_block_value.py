"""A secret's `value:` written as a YAML block scalar (`value: |`, `value: >-`; YAML 1.2.2 8.1): the
value is on the lines below, indented. `kubectl get deploy vllm -o yaml` prints an env var whose
value holds a new line so (`- name: HF_TOKEN` then `  value: |`), and `terraform output -json | yq -P`
prints a sensitive output's multi-line value so (`hf_token:` / `  sensitive: true` / `  value: |`).
Before, the name/value pattern masked the "|" and the secret stood in clear on the next lines
(`value: ***REDACTED***` over `    hf_...`), and under a secret's name only a known token shape was
masked. Now the block's lines are masked, its header and indentation kept, in text, in secret_spans
and in a spilled stream wherever the stream is cut; the next variable and a block under another
name stay."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, secret_spans

SECRET = "Zq8-local-serving-key"

POD_ENV = f"""    env:
    - name: HF_TOKEN
      value: |
        {SECRET}
    - name: MODEL
      value: meta-llama/Llama-3.1-8B-Instruct
    - name: VLLM_ARGS
      value: |
        --speculative-config {{"method": "eagle3"}}
"""

POD_ENV_MASKED = f"""    env:
    - name: HF_TOKEN
      value: |
        {MASK}
    - name: MODEL
      value: meta-llama/Llama-3.1-8B-Instruct
    - name: VLLM_ARGS
      value: |
        --speculative-config {{"method": "eagle3"}}
"""


def test_env_pair_block() -> None:
    assert redact_text(POD_ENV) == POD_ENV_MASKED


@pytest.mark.parametrize("header", ["|", "|-", ">", ">-", "|2"])
def test_env_pair_block_headers(header: str) -> None:
    text = f"- name: DB_PASSWORD\n  value: {header}\n    {SECRET}\n    second line\n- name: PORT\n  value: '5432'\n"
    assert redact_text(text) == f"- name: DB_PASSWORD\n  value: {header}\n    {MASK}\n- name: PORT\n  value: '5432'\n"


TERRAFORM = f"""api_key:
  sensitive: true
  type: string
  value: |
    {SECRET}
    {SECRET}-2
model_name:
  sensitive: false
  type: string
  value: |
    llama
"""

TERRAFORM_MASKED = f"""api_key:
  sensitive: true
  type: string
  value: |
    {MASK}
model_name:
  sensitive: false
  type: string
  value: |
    llama
"""


def test_terraform_output_as_yaml() -> None:
    assert redact_text(TERRAFORM) == TERRAFORM_MASKED
    start = TERRAFORM.index(SECRET)
    assert secret_spans(TERRAFORM) == [(start, start + len(f"{SECRET}\n    {SECRET}-2"))]


@pytest.mark.parametrize("text", [POD_ENV, TERRAFORM])
def test_streamed_wherever_cut(text: str) -> None:
    # a smaller block and overlap than a run's (still longer than the text): the cut falls on
    # each line of the text for some length of the filler before it
    for pad in range(0, 120):
        filler = "".join(f"line {i}\n" for i in range(pad))
        redactor = StreamRedactor()
        redactor.BLOCK, redactor.OVERLAP = 512, 256
        redactor._next_at = 512
        data = (filler + text + filler).encode()
        out = b"".join(redactor.feed(data[i:i + 29]) for i in range(0, len(data), 29)) + redactor.close()
        assert SECRET.encode() not in out, pad
        assert out.decode() == filler + redact_text(text) + filler, pad


def test_value_block_under_other_names_stays() -> None:
    text = "- name: PROMPT\n  value: |\n    Write a haiku.\nconfig:\n  value: |\n    tp: 8\n"
    assert redact_text(text) == text
