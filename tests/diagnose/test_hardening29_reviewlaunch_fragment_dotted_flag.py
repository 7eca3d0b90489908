"""A server's flags pasted alone (an issue's "launch parameters", one per line) whose dotted key
is followed by another flag: vLLM's parser takes that flag as the key's value
(FlexibleArgumentParser.parse_args: `value_str = processed_args[i + 1]`, vllm/utils/argparse_utils.py),
leaving the flag's own value a stray word. Round 29's reader took it so, and the fragment test then
saw a positional (`8000`) and no longer took the words for flags: 'not an SGLang or vLLM server
command' instead of the key named (round 28 named it)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

FRAGMENT = """--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
--speculative-config.num_speculative_tokens 3
--speculative-config.method
--port 8000
"""


def test_a_pasted_fragment_with_a_dotted_key_before_a_flag_names_the_key():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(FRAGMENT)
    assert caught.value.message.startswith("vllm: --speculative-config.method has no value of its own"), caught.value.message
    # with its value the same fragment is a vLLM command
    cfg = parse_launch_command(FRAGMENT.replace("method\n", "method eagle3\n"))
    assert (cfg.engine, cfg.algorithm, cfg.num_steps) == ("vllm", "EAGLE3", 3)
