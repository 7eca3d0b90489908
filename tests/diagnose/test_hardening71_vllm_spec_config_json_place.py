"""A --speculative-config that is not JSON says where json.loads stopped, as text to find by eye.

`--speculative-config '{"method": "eagle3" "model": ...}'` (a comma missing) was refused with
"Expecting ',' delimiter at char 20" and a hint to quote the value for the shell and to mind a
`ps` line cut at the terminal width: the place was a number to count out by hand, in JSON often
written over several lines, and the hint fit only a value cut short. vLLM reads the value with
json.loads (vllm/engine/arg_utils.py: `optional_type(json.loads)`), which stops at that place.
Now the line and column of a multi-line value, the text on either side, and the hint that fits:
a value that ends before it closes is a cut line; another is JSON to fix there."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError


def _refusal(spec: str) -> LaunchParseError:
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{spec}'")
    return raised.value


def test_a_missing_comma_is_shown_between_the_text_around_it() -> None:
    spec = '{"method": "eagle3" "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
    error = _refusal(spec)
    assert error.message == (
        "vllm: --speculative-config is not valid JSON (Expecting ',' delimiter at char 20, between "
        "'{\"method\": \"eagle3\"' and '\"model\": \"yuhuili/EAGLE3'): " + repr(spec))
    assert error.hint.startswith("fix the JSON where it breaks (vLLM reads it with json.loads: double-quoted keys "
                                 "and strings, a comma between entries and none after the last)")
    # (a `ps` line cut inside the JSON may also break it before its end: that hint stays)
    assert error.hint.endswith("take it from `ps -ww -o args -p PID` or `tr '\\0' ' ' < /proc/PID/cmdline`")


def test_json_over_several_lines_is_placed_by_line_and_column() -> None:
    spec = ('{\n    "method": "eagle3",\n    "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"\n'
            '    "num_speculative_tokens": 3\n}')
    # the comma missing at the end of line 3 shows: the line break reads as a space
    assert ("(Expecting ',' delimiter at line 4 column 5, between 'E3-LLaMA3.1-Instruct-8B\"' and "
            "'\"num_speculative_tokens\"')") in _refusal(spec).message


def test_a_value_cut_short_says_so_and_keeps_the_ps_hint() -> None:
    error = _refusal('{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3')
    assert "(Expecting ',' delimiter at char 96, its end: the text stops there)" in error.message
    assert error.hint.startswith("the JSON stops before it closes: a line copied from `ps` may be cut at the "
                                 "terminal width")
