"""A secret's values on the lines below its name, as YAML writes a block (YAML 1.2.2 8.2), stood
in clear. `terraform output -json | yq -P` prints `hf_token:` then `  sensitive: true`, `  type:
string`, `  value: hf_...`; a vLLM `--config` file lists its keys as `api-key:` then `  - k1`,
`  - k2`. NAME=value read the next line's first word as the value: the key `sensitive:` or the "-"
was masked (`  ***REDACTED*** true`) and the token or the keys stood in clear; an empty name before
the next key (`hf_token:` then `model: llama`) lost that key's name. Now the block's `value` and its
items are masked, in text, in a streamed output and in secret_spans; the keys and the dashes stay,
a plain scalar on the next line (`password:` then `  abc123`) is still masked, and a list under
another name, a prose list and a reference stay."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, secret_spans

TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456"

TF_YAML = ("db_password:\n  sensitive: true\n  type: string\n  value: Pa55-w0rd!\n"
           "endpoint:\n  sensitive: false\n  type: string\n  value: http://10.0.0.5:8000/v1\n"
           f"hf_token:\n  sensitive: true\n  type: string\n  value: {TOKEN}\n")
TF_MASKED = ("db_password:\n  sensitive: true\n  type: string\n  value: " + MASK + "\n"
             "endpoint:\n  sensitive: false\n  type: string\n  value: http://10.0.0.5:8000/v1\n"
             "hf_token:\n  sensitive: true\n  type: string\n  value: " + MASK + "\n")

VLLM_CONFIG = ("model: meta-llama/Llama-3.1-8B-Instruct\nspeculative-config: '{\"method\": \"eagle3\"}'\n"
               "api-key:\n  - sk-local-first\n  - \"second-key\"  # ci\n  - 'third key'\nport: 8000\n")
VLLM_MASKED = ("model: meta-llama/Llama-3.1-8B-Instruct\nspeculative-config: '{\"method\": \"eagle3\"}'\n"
               f"api-key:\n  - {MASK}\n  - \"{MASK}\"  # ci\n  - '{MASK}'\nport: 8000\n")


@pytest.mark.parametrize("text, masked", [
    (TF_YAML, TF_MASKED),
    (VLLM_CONFIG, VLLM_MASKED),
    ("api_key:\n- k1-abc\n- k2-def\nmodel: x\n", f"api_key:\n- {MASK}\n- {MASK}\nmodel: x\n"),  # compact sequence
    ("password:\r\n  - a1b2\r\n  - c3d4\r\n", f"password:\r\n  - {MASK}\r\n  - {MASK}\r\n"),
    # a nested mapping's own value is not the secret's
    ("hf_token:\n  meta:\n    value: owner\n  value: s3cr3t\n", f"hf_token:\n  meta:\n    value: owner\n  value: {MASK}\n"),
])
def test_block_values_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    assert len(secret_spans(text)) == masked.count(MASK)


def test_spans_are_the_values() -> None:
    spans = secret_spans(TF_YAML)
    assert [TF_YAML[s:e] for s, e in spans] == ["Pa55-w0rd!", TOKEN]


@pytest.mark.parametrize("text", [
    "hf_token:\nmodel: llama\n",  # an empty name, then the next key
    "served-model-name:\n  - llama\n  - llama-eagle3\n",  # a list under another name
    "Token:\n- The token had expired\n- log in again\n",  # prose under a heading
    "api-key:\n  - $VLLM_API_KEY\n  - '{{ api_key }}'\n",  # references
    "hf_token:\n  value: ${HF_TOKEN}\n",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


def test_plain_scalar_on_next_line_still_masked() -> None:
    assert redact_text("password:\n  abc123\n") == f"password:\n  {MASK}\n"


@pytest.mark.parametrize("filler", range(0, 400, 37))
def test_stream_cut_between_name_and_values(filler: int) -> None:
    # the stream cuts after a line end 4 KB before the block's end: the name on one side, the values on the other
    head = ("x" * 79 + "\n") * ((StreamRedactor.BLOCK - StreamRedactor.OVERLAP) // 80 - 1) + "y" * filler + "\n"
    text = head + "db_password:\n" + "".join(f"  note_{i}: n\n" for i in range(40)) + "  value: Pa55-w0rd!\n" + "z\n" * 3000
    redactor = StreamRedactor()
    data = text.encode()
    out = b"".join(redactor.feed(data[at:at + 4096]) for at in range(0, len(data), 4096)) + redactor.close()
    assert out.decode() == redact_text(text)
    assert "Pa55-w0rd!" not in out.decode()
