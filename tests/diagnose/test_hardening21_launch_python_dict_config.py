"""`--speculative-config "{'method': 'eagle3', ...}"`: Python's dict syntax (session 12).

vLLM reads --speculative-config with json.loads (optional_type(json.loads), vllm/engine/arg_utils.py),
so single-quoted keys make argparse exit and the server never starts. The audit said only "not
valid JSON" with a hint to quote the value for the shell, which it already was.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

PYTHON_DICT = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config \"{'method': 'eagle3', "
               "'model': 'yuhuili/EAGLE3-LLaMA3.1-Instruct-8B', 'num_speculative_tokens': 3}\"")


def test_python_dict_syntax_is_named_and_its_json_given():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(PYTHON_DICT)
    text = str(caught.value)
    assert "Python's dict syntax, not JSON" in text and "does not start" in text
    assert ('--speculative-config \'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", '
            '"num_speculative_tokens": 3}\'') in text


def test_other_broken_json_keeps_its_message():
    with pytest.raises(LaunchParseError, match="is not valid JSON"):
        parse_launch_command("vllm serve m --speculative-config '{\"method\": \"eagle3\",'")
