"""`cat /proc/$(pgrep -f sglang)/environ`, how a session checks which token and which CUDA devices
the running server got, prints the variables separated by NULs (proc(5): "The entries are
separated by null bytes"), no space or newline. A secret's bare value ran to the next whitespace:
`HF_TOKEN=hf_...\\0CUDA_VISIBLE_DEVICES=0\\0SGLANG_PORT=30000...` was masked to the end of the
environment, every variable after the token lost from the evidence (MYSQL_PWD and
ANSIBLE_BECOME_PASS likewise). Now a value ends at its NUL, as it ends at a newline."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text

TOKEN = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWxYz0123456"

ENVIRON = ("PATH=/usr/local/nvidia/bin:/usr/local/bin:/usr/bin\0HF_TOKEN={}\0CUDA_VISIBLE_DEVICES=0,1\0"
           "DB_PASS={}\0MYSQL_PWD={}\0ANSIBLE_BECOME_PASS={}\0AWS_SECRET_ACCESS_KEY={}\0VLLM_API_KEY={}\0"
           "DATABASE_URL=postgres://app:{}@10.0.0.7:5432/runs\0SGLANG_PORT=30000\0HOME=/root\0")
SECRETS = (TOKEN, "hunter2", "my5qlpw", "b3come", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "sk-local-1", "pgpw9")


def test_environ_values_end_at_nul() -> None:
    assert redact_text(ENVIRON.format(*SECRETS)) == ENVIRON.format(*([MASK] * len(SECRETS)))


@pytest.mark.parametrize("text, masked", [
    (f"HF_TOKEN={TOKEN}\0SGLANG_PORT=30000\0", f"HF_TOKEN={MASK}\0SGLANG_PORT=30000\0"),
    ("SGLANG_API_KEY=local-key\0CUDA_VISIBLE_DEVICES=0\0", f"SGLANG_API_KEY={MASK}\0CUDA_VISIBLE_DEVICES=0\0"),
    ("/v1/models?token=abc123\0next", f"/v1/models?token={MASK}\0next"),
    ("OPENAI_API_KEY=abc def\0X=1", f"OPENAI_API_KEY={MASK} def\0X=1"),  # a space still ends it
])
def test_single_values(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_stream_of_environ() -> None:
    data = ENVIRON.format(*SECRETS).encode() * 300
    stream = StreamRedactor()
    out = b"".join(stream.feed(data[at:at + 1000]) for at in range(0, len(data), 1000)) + stream.close()
    assert out == ENVIRON.format(*([MASK] * len(SECRETS))).encode() * 300
