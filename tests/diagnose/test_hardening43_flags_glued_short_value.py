"""vLLM's two-letter short options with the value glued on: `-tp2`, `-t2`, `-sc{...}`.

argparse splits a value off a one-dash word only for a one-letter option or at an `=` (CPython
Lib/argparse.py `_get_option_tuples`): `vllm serve M -tp2` exits with "unrecognized arguments:
-tp2" and the server never starts. The audit read `-tp2` as an unknown switch and audited the
server with its tensor parallelism unknown, as if it ran. It now says the line does not start a
server and how to write it; `-tp 2`, `-tp=2`, `-t 2`, `-t=2` and `-sc.KEY=V` still read as
vLLM reads them (verified against argparse itself below)."""

from __future__ import annotations

import argparse
import shlex

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

SPEC = '{"method": "eagle3", "model": "/d", "num_speculative_tokens": 3}'


def _argparse_reads(words: list[str]) -> bool:
    """Whether an argparse parser with vLLM's two short options accepts ``words``."""
    parser = argparse.ArgumentParser(exit_on_error=False, add_help=False)
    parser.add_argument("-tp", "--tensor-parallel-size", type=int)
    parser.add_argument("-sc", "--speculative-config")
    try:
        _, unknown = parser.parse_known_args(words)
    except argparse.ArgumentError:
        return False
    return not unknown


@pytest.mark.parametrize(("words", "glued"), [
    (["-tp2", "-sc", SPEC], "-tp2"),
    (["-t2", "-sc", SPEC], "-t2"),
    (["-tp", "2", "-sc" + SPEC], "-sc" + SPEC),
])
def test_a_value_glued_to_a_two_letter_option_starts_no_server(words, glued):
    assert not _argparse_reads(words)
    with pytest.raises(LaunchParseError) as refused:
        parse_launch_command(["vllm", "serve", "M", *words])
    assert f"'unrecognized arguments: {glued}'" in str(refused.value)
    assert "the server does not start" in str(refused.value)
    short = "tp" if glued.startswith("-t") else "sc"
    value = glued[1 + len(short):] if glued[1:].startswith(short) else glued[2:]
    assert refused.value.hint == f"write -{short} {shlex.quote(value)} or -{short}={shlex.quote(value)}"


@pytest.mark.parametrize("words", [
    ["-tp", "2", "-sc", SPEC],
    ["-tp=2", "-sc", SPEC],
    ["-t", "2", "-sc", SPEC],
    ["-t=2", "-sc=" + SPEC],
    ["-tp", "2", "-sc.method=eagle3", "-sc.model=/d", "-sc.num_speculative_tokens=3"],
])
def test_the_spellings_argparse_takes_still_read_tensor_parallel_2(words):
    # Dotted keys are FlexibleArgumentParser's own; a one-dash prefix before '=' (`-t=2`) is
    # expanded by the argparse of Python 3.12 and later (vLLM's images), not by 3.11's.
    if not any(w.startswith(("-sc.", "-t=")) for w in words):
        assert _argparse_reads(words)
    assert parse_launch_command(["vllm", "serve", "M", *words]).tp == 2
