"""Launch commands with a long single-quoted word (a --json-model-override-args or a
--speculative-config of many kilobytes) are split by putting the quoted text aside while shlex
splits the line (launch._hide_long_single_quotes): shlex grows a word a character at a time, so a
300,000-character word took seconds and 3 MB over five minutes in `spec-debug analyze`. These tests
pin that the words are exactly what shlex (bash's quoting) gives, whatever the quotes around."""

from __future__ import annotations

import json
import shlex

import pytest

from spec_debug.diagnose import launch
from spec_debug.diagnose.launch import parse_launch_command, split_command

LONG = launch._LONG_QUOTE_CHARS + 1000


@pytest.mark.parametrize("word", [
    "'" + "A" * LONG + "'",                                   # alone
    "x'" + "B" * LONG + "'y",                                  # glued to unquoted text
    "'a'\"b c\"'" + "C" * LONG + "'\"d\"",                   # between double quotes
    "'" + "D" * LONG + "''" + "E" * LONG + "'",               # two long ones glued
    "'" + ("F\" $(x) `y` \\ " * (LONG // 12)) + "'",         # quote-like text inside, kept as written
])
def test_long_single_quoted_words_split_as_shlex_splits_them(word: str) -> None:
    line = f"python3 -m sglang.launch_server --model-path m --x {word} --tp-size 2"
    assert split_command(line) == shlex.split(line)


def test_a_double_quote_holding_a_single_quote_is_no_opening() -> None:
    line = "python3 -m sglang.launch_server --a \"it's\" --b '" + "G" * LONG + "' --c 'it'"
    assert split_command(line) == shlex.split(line)


def test_an_unclosed_long_quote_is_still_refused() -> None:
    with pytest.raises(launch.LaunchParseError):
        split_command("python3 -m sglang.launch_server --a '" + "H" * LONG)


def test_a_long_speculative_config_is_read_whole() -> None:
    config = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1,
              "note": "n" * LONG}
    line = f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{json.dumps(config)}'"
    argv = split_command(line)
    assert json.loads(argv[-1]) == config
    parsed = parse_launch_command(line)
    assert parsed.engine == "vllm"
