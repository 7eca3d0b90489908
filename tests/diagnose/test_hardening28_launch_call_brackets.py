"""Where an engine call ends when a string or a comment inside it holds a bracket.

`_inside_the_call` decides whether Python's SyntaxError is in the `LLM(...)` call (then the audit
says the code does not parse) or in code around it (then the text is read on as before). It
counted every bracket character, so a `)` in a comment of the call ended the call early and the
missing comma below it was not claimed, and a `(` in a string ran the call on to the end, so a
fault after the call was claimed as the call's.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

# the vLLM-Ascend PR #4521 example (a comma missing between two speculative_config entries),
# with numbered comments in the call
NUMBERED_COMMENTS = '''from vllm import LLM, SamplingParams

llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",  # 1) the target
    # 2) the drafter
    speculative_config={
        "method": "eagle3",
        "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
        "num_speculative_tokens": 3
    },
)
'''

# a `(` in a string of the call, and a line of prose pasted after the code
PAREN_IN_STRING = '''from vllm import LLM

llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",
    served_model_name="llama-3.1 (eagle3",
    speculative_config={"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                        "num_speculative_tokens": 3},
)
then I ran the benchmark and it was slower
'''


def test_a_missing_comma_below_a_numbered_comment_is_the_calls():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(NUMBERED_COMMENTS)
    assert "builds LLM(...) does not parse" in caught.value.message
    assert "at line 9" in caught.value.message


def test_a_fault_after_a_call_with_a_paren_in_a_string_is_not_the_calls():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(PAREN_IN_STRING)
    assert "does not parse" not in caught.value.message


def test_the_same_code_mended_is_the_server():
    mended = NUMBERED_COMMENTS.replace('Instruct-8B"\n', 'Instruct-8B",\n')
    cfg = parse_launch_command(mended)
    assert cfg.engine == "vllm" and cfg.num_steps == 3
    cfg = parse_launch_command(PAREN_IN_STRING.replace("then I ran the benchmark and it was slower\n", ""))
    assert cfg.engine == "vllm" and cfg.num_steps == 3
