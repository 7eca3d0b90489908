"""`--speculative-config @spec.json` (curl's form of "read this file") on vLLM.

vLLM reads the option with optional_type(json.loads) and its parsers set no argparse
fromfile_prefix_chars (vllm/utils/argparse_utils.py FlexibleArgumentParser), so `@spec.json` is
taken as JSON and refused at startup. The audit said so, but its fix was
`--speculative-config "$(cat @spec.json)"`, which names a file that does not exist; the @ is
now dropped from the path and the line says vLLM reads no @file.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command


@pytest.mark.parametrize(("word", "path"), [("@spec.json", "spec.json"),
                                            ("@./configs/eagle3.json", "./configs/eagle3.json"),
                                            ("@/etc/vllm/spec.json", "/etc/vllm/spec.json")])
def test_an_at_file_names_the_file_without_the_at(word: str, path: str) -> None:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {word}")
    assert raised.value.message == (
        f"vllm: --speculative-config takes the JSON itself, not a file: {word!r} is not JSON (vLLM's argparse reads "
        "no @file: a leading @ names no file to it), so vLLM's argparse refuses it (json.loads) and the server does "
        "not start")
    assert raised.value.hint == f'pass the file\'s text: --speculative-config "$(cat {path})"'


def test_a_plain_path_is_unchanged() -> None:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config spec.json")
    assert raised.value.message == (
        "vllm: --speculative-config takes the JSON itself, not a file: 'spec.json' is not JSON, so vLLM's argparse "
        "refuses it (json.loads) and the server does not start")
    assert raised.value.hint == 'pass the file\'s text: --speculative-config "$(cat spec.json)"'
