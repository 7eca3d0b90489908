"""The "not valid YAML" refusal's hint (423a0081) told every broken compose file or manifest to
quote the JSON of --speculative-config, also one whose error has nothing to do with it: a flow
list left unclosed (a paste cut short). That hint now goes only with the cause it fixes (a `: `
inside an unquoted value); other errors get one that names the runtime's own check."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

SPEC = '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
CUT = f"""services:
  vllm:
    image: vllm/vllm-openai:v0.10.1
    command: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-config", '{SPEC}'
"""
UNQUOTED = f"""services:
  vllm:
    image: vllm/vllm-openai:v0.10.1
    command: --model meta-llama/Llama-3.1-8B-Instruct --speculative-config '{SPEC}'
"""


def test_an_unclosed_list_is_not_told_to_quote_the_speculative_config():
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(CUT)
    assert str(raised.value).startswith("this compose file is not valid YAML (line 5, ")
    assert "speculative-config" not in (raised.value.hint or "") and "docker compose config" in raised.value.hint


def test_json_in_a_plain_value_keeps_its_hint():
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(UNQUOTED)
    assert raised.value.hint.startswith("quote the list item whole in single quotes")
