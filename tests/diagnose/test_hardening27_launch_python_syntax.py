"""Python that builds an engine but does not parse: one line saying where, not 'not a server command'.

The vLLM-Ascend PR #4521 example builds `LLM(..., speculative_config={"method": "eagle3",
"model": "..." "num_speculative_tokens": 3})`: a comma is missing, Python stops with SyntaxError and
no engine is built. The audit said 'not an SGLang or vLLM server command'. A shell line
`python -c "...` around such code is not Python with a fault, and is read as before.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

MISSING_COMMA = '''def main():
    sampling_params = SamplingParams(temperature=0.8, top_p=0.95)
    llm = LLM(
            model="meta-llama/Llama-3.1-8B-Instruct",
            tensor_parallel_size=1,
            speculative_config={
                "method": "eagle3",
                "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
                "num_speculative_tokens": 3
            },
            enforce_eager=True,
        )
'''


def test_engine_code_that_does_not_parse_names_the_line():
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(MISSING_COMMA)
    message = caught.value.message
    assert "builds LLM(...) does not parse" in message and "at line 9" in message
    assert "missing comma" in (caught.value.hint or "")


def test_the_same_code_with_its_comma_is_the_server():
    cfg = parse_launch_command(MISSING_COMMA.replace('Instruct-8B"\n', 'Instruct-8B",\n'))
    assert cfg.engine == "vllm" and cfg.num_steps == 3


def test_a_fault_outside_the_engine_call_is_not_claimed():
    # prose above the code: the fault is not in the call, so the reading goes on as before
    text = "Here is what I ran:\nimport vllm\nllm = LLM(model='m', speculative_config={'method': 'eagle3'})\n"
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(text)
    assert "does not parse" not in caught.value.message
