"""Review of the notebook/shell readers: a command that is only printed.

`echo vllm serve M --speculative-config ...` (or a notebook cell's `!echo ...`) prints the words;
no server starts. It was audited as the vLLM server it names.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SERVE = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
         """'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'""")


@pytest.mark.parametrize("text", [f"echo {SERVE}", f"!echo {SERVE}", f"printf '%s\\n' {SERVE}"])
def test_a_printed_command_is_no_server(text):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(text)
    assert "not an SGLang or vLLM server command" in exc.value.message


@pytest.mark.parametrize("text", [f"echo starting the server\n{SERVE}", f"echo '{{}}' > /tmp/x; {SERVE} &",
                                  f"!echo hi\n!{SERVE}"])
def test_the_server_after_an_echo_is_read(text):
    assert parse_launch_command(text).num_steps == 3
