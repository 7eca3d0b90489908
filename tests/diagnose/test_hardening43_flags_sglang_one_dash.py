"""vLLM's `-tp 2` written on an SGLang server.

SGLang defines every option as `--` + its name (no short options but argparse's -h), and
argparse matches a one-dash word only against one-dash option strings, so
`python -m sglang.launch_server ... -tp 2` exits with "unrecognized arguments: -tp 2" and the
server never starts. The audit dropped the dash and read it as `--tp 2` (tp 2, no problem). It
now says the line does not start a server and which flag to write; `--tp 2` (an argparse prefix
of --tp-size) still reads as tp 2."""

from __future__ import annotations

import argparse

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

BASE = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 --speculative-draft-model-path d "


def _sglang_like_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(exit_on_error=False, add_help=False)
    parser.add_argument("--tensor-parallel-size", "--tp-size", type=int)
    parser.add_argument("--model-path")
    return parser


@pytest.mark.parametrize("words", [["-tp", "2"], ["-tp=2"], ["-tp2"], ["-model-path", "m"]])
def test_argparse_refuses_one_dash_words(words):
    _, unknown = _sglang_like_parser().parse_known_args(words)
    assert unknown and unknown[0] == words[0]


@pytest.mark.parametrize("written", ["-tp 2", "-tp=2", "-tp2"])
def test_one_dash_tp_does_not_start_sglang(written):
    with pytest.raises(LaunchParseError) as info:
        parse_launch_command(BASE + written)
    word = written.split()[0]
    assert str(info.value).startswith(
        f"sglang: {word} is not an SGLang flag: SGLang has only --long options (-tp is vLLM's short form), "
        "so argparse exits with 'unrecognized arguments' and the server does not start")
    assert info.value.hint == "write --tp-size VALUE"


def test_one_dash_long_name_does_not_start_sglang():
    with pytest.raises(LaunchParseError) as info:
        parse_launch_command(BASE + "-speculative-num-steps 3")
    assert str(info.value).startswith("sglang: -speculative-num-steps is not an SGLang flag: SGLang has only "
                                      "--long options, so argparse")


def test_double_dash_tp_and_negative_values_still_read():
    assert _sglang_like_parser().parse_known_args(["--tp", "2"])[0].tensor_parallel_size == 2
    cfg = parse_launch_command(BASE + "--tp 2 --speculative-num-steps 3 --speculative-eagle-topk 1 "
                               "--speculative-num-draft-tokens 4 --random-seed -1")
    assert (cfg.tp, cfg.num_steps) == (2, 3)
