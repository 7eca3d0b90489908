"""The engine call's lines are numbered as Python numbers them (review of 1f6b221f).

`_inside_the_call` read the code with str.splitlines, which also ends a line at a form feed
(`\\f`, a page break some editors keep between sections), NEL or U+2028, while Python's
SyntaxError.lineno counts only `\\n`, `\\r\\n` and `\\r`: from the first such character above the
call the tokenizer started on the wrong line, the call was said to end on its second line, and a
missing comma inside it read as 'not an SGLang or vLLM server command' (was claimed before
1f6b221f, which counted characters and `\\n`s).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

# the vLLM-Ascend PR #4521 example (a comma missing between two speculative_config entries)
CODE = '''from vllm import LLM
{sep}
llm = LLM(
    model="meta-llama/Llama-3.1-8B-Instruct",
    speculative_config={{
        "method": "eagle3",
        "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
        "num_speculative_tokens": 3
    }},
)
'''


@pytest.mark.parametrize("sep, line", [("\f", 8), ("# a comment\u2028pasted from a web page", 8),
                                       ("# NEL \x85 in a comment", 8), ("# old Mac line end\rx = 1", 9)])
def test_a_missing_comma_is_the_calls_whatever_ends_a_line_above(sep, line):
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(CODE.format(sep=sep))
    assert "builds LLM(...) does not parse" in caught.value.message
    assert f"at line {line}" in caught.value.message


# a tutorial's comment or docstring that names the call above it: the first `LLM(` of the text
# was taken for the call, which then "ended" in the comment, and the comma missing in the real
# call read as 'not an SGLang or vLLM server command'
@pytest.mark.parametrize("sep", ["# build an LLM(...) that drafts with EAGLE-3",
                                 '"""Usage: LLM(model=..., speculative_config={...})"""',
                                 '"""\nUsage:\n    llm = LLM(model="x")\n"""'])
def test_a_call_named_in_a_comment_or_docstring_above_is_not_the_call(sep):
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(CODE.format(sep=sep))
    assert "builds LLM(...) does not parse" in caught.value.message
    assert f"at line {8 + sep.count(chr(10))}" in caught.value.message
