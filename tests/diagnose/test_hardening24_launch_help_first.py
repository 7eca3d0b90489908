"""A script that asks the server for its help before starting it (session 15).

`vllm serve --help=speculative` (vLLM's per-group help) or `python3 -m sglang.launch_server --help
| grep speculative` above the real command prints the options and exits. It was taken for the
server (the first one of the script): a server with no model and no flags, the real command's
settings unread.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command

VLLM = "vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-len 4096"
SGLANG = "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --context-length 4096"


@pytest.mark.parametrize("text", [
    "vllm serve --help | grep -A3 speculative\n" + VLLM,
    "vllm serve --help=speculative\n" + VLLM,
    "vllm --version && " + VLLM,
    "python3 -m sglang.launch_server --help | grep speculative\n" + SGLANG,
])
def test_the_help_line_is_no_server(text):
    cfg = parse_launch_command(text)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"


def test_a_help_line_alone_is_still_read():
    assert parse_launch_command("vllm serve --help").flags == {"help": True}
