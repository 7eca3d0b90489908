"""vLLM's `--api-key` takes several keys (`api_key: list[str]`, argparse nargs "+": `vllm serve MODEL
--api-key k1 k2 --port 8000`, one per client). The flag pattern and the argv walk masked the first
and kept every other key in clear, in the launch command a run records and in the server's argv.
Now each word up to the next option is masked in a vLLM command, across its `\\` continuations;
elsewhere a word after a flag's value is the command's argument and stays."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, redact_value

K1, K2, K3 = "client-a-7f3e9c1d", "client-b-0a5b2e8f", "client-c-9d4c6a2b"


@pytest.mark.parametrize("text, masked", [
    (f"vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key {K1} {K2} --port 8000",
     f"vllm serve meta-llama/Llama-3.1-8B-Instruct --api-key {MASK} {MASK} --port 8000"),
    (f"python3 -m vllm.entrypoints.openai.api_server --model m --api-key={K1} {K2} {K3}",
     f"python3 -m vllm.entrypoints.openai.api_server --model m --api-key={MASK} {MASK}"),
    (f"vllm serve m \\\n  --api-key {K1} \\\n  {K2} \\\n  --speculative-config '{{\"method\": \"eagle3\"}}'",
     f"vllm serve m \\\n  --api-key {MASK} \\\n  {MASK} \\\n  --speculative-config '{{\"method\": \"eagle3\"}}'"),
    (f"vllm serve m --api-key {K1} --port 8000 && curl localhost:8000/health",
     f"vllm serve m --api-key {MASK} --port 8000 && curl localhost:8000/health"),
])
def test_every_key_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_server_argv() -> None:
    argv = ["/usr/bin/python3", "-m", "vllm.entrypoints.openai.api_server", "--model", "m",
            "--api-key", K1, K2, K3, "--port", "8000"]
    assert redact_value({"argv": argv}) == {"argv": [*argv[:6], MASK, MASK, MASK, "--port", "8000"]}


@pytest.mark.parametrize("text", [
    f"python3 -m sglang.launch_server --api-key {K1} --port 30000 && echo {K2}",
    f"mytool --api-key {K1} input.txt",
])
def test_other_commands_keep_their_arguments(text: str) -> None:
    assert redact_text(text) == text.replace(K1, MASK)


def test_other_argv_keeps_its_arguments() -> None:
    argv = ["mytool", "--api-key", K1, "input.txt"]
    assert redact_value({"argv": argv}) == {"argv": ["mytool", "--api-key", MASK, "input.txt"]}
