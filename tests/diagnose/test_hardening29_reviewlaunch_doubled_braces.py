"""A --speculative-config JSON left with a template's doubled braces (`'{{"method": ...}}'`, as a
Python str.format template or a Go template escape writes it; tests/diagnose/test_hardening19_review_launch.py
IMAGE is one, unformatted) was a traceback: the Python-literal reading of a value that is not JSON
(ast.literal_eval) builds a set holding a dict and raises TypeError ('unhashable type: dict'). vLLM's
json.loads refuses the value; the audit says so in one line."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command


def test_a_doubled_brace_json_is_one_clear_error():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
                             "'{{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
                             "\"num_speculative_tokens\": 2}}'")
    assert caught.value.message.startswith("vllm: --speculative-config is not valid JSON"), caught.value.message
