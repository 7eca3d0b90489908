"""A secret flag with no value before the next flag (`--api-key --port 8000`).

The flag pattern read the next flag as the secret (`--api-key ***REDACTED*** 8000`): the
evidence of the mistake (argparse: "expected one argument") was masked away, and a command kept
as its words (the argv walk) already keeps the next flag.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, redact_value

SECRET = "Wd3nT8rQ1yHs"


@pytest.mark.parametrize("text", [
    "vllm serve m --api-key --port 8000",
    "python3 -m sglang.launch_server --model-path m --hf-token --trust-remote-code",
    "./login.sh --password --user alice",
])
def test_the_next_flag_is_no_secret(text: str) -> None:
    assert redact_text(text) == text


def test_text_and_argv_agree() -> None:
    argv = ["vllm", "serve", "m", "--api-key", "--port", "8000"]
    assert redact_value(argv) == argv
    assert redact_text(" ".join(argv)) == " ".join(argv)


@pytest.mark.parametrize("text, masked", [
    (f"vllm serve m --api-key {SECRET} --port 8000", f"vllm serve m --api-key {MASK} --port 8000"),
    (f"vllm serve m --api-key=--{SECRET}", f"vllm serve m --api-key={MASK}"),
    (f"vllm serve m --api-key -{SECRET}", f"vllm serve m --api-key {MASK}"),
])
def test_a_value_is_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
