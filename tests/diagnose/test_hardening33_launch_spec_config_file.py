"""`--speculative-config /path/spec.json`: a file's path where vLLM takes the JSON itself.

vLLM reads the option with optional_type(json.loads) (vllm/engine/arg_utils.py): the word is
parsed as JSON, no file is opened, and the server exits at startup. The audit's line said the
JSON was not valid and to quote it for the shell, or that a `ps` line may be cut: neither is the
cause, and the fix is to pass the file's text.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command


@pytest.mark.parametrize("path", ["/etc/vllm/spec.json", "./spec.json", "~/cfg/eagle3-spec.json",
                                  "configs/spec_config.json"])
def test_a_json_files_path_is_said_to_be_a_path(path: str) -> None:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {path}")
    assert raised.value.message.startswith("vllm: --speculative-config takes the JSON itself, not a file")
    assert raised.value.hint == f'pass the file\'s text: --speculative-config "$(cat {path})"'


def test_other_words_keep_their_lines() -> None:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command("vllm serve m --speculative-config eagle3")
    assert "not valid JSON" in raised.value.message
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command("vllm serve m --speculative-config {method:eagle3,num_speculative_tokens:3}")
    assert "written unquoted in a shell" in raised.value.message
