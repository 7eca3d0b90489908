"""A launch script's flags kept in one quoted variable written over lines (session 12).

`EXTRA="--speculative-algorithm EAGLE3 \\` then more lines, closed by `"` a few lines down, and
the server started with `$EXTRA`: bash joins the value (a backslash-newline is removed inside
double quotes too) and splits it into the server's words. The audit skipped any value spread over
lines, so `$EXTRA` stayed one unexpanded word and the server looked like it did not speculate:
`--speculative-num-steps 1` (INCIDENT.md) gave no SD101.
"""

from __future__ import annotations

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


MULTILINE_EXTRA = '''#!/bin/bash
MODEL=meta-llama/Llama-3.1-8B-Instruct
EXTRA="--speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B \\
  --speculative-num-steps 1 --speculative-eagle-topk 1 \\
  --speculative-num-draft-tokens 2"
python -m sglang.launch_server --model-path $MODEL $EXTRA --port 30000
'''


def test_a_quoted_value_over_lines_is_expanded_into_the_server_words():
    argv = split_command(MULTILINE_EXTRA)
    assert "$EXTRA" not in argv
    assert argv[argv.index("--speculative-num-steps") + 1] == "1"
    assert argv[argv.index("--speculative-draft-model-path") + 1] == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
    assert argv[-2:] == ["--port", "30000"]


def test_one_step_in_a_multiline_variable_is_sd101():
    launch, findings = _findings(MULTILINE_EXTRA)
    assert launch["algorithm"] == "EAGLE3" and launch["num_steps"] == 1
    assert [f.code for f in findings] == ["SD101"]


def test_newlines_without_backslashes_split_like_blanks():
    # unquoted `$VLLM_ARGS`: bash splits the value at newlines as at blanks (IFS)
    script = ('VLLM_ARGS="--speculative-config\n'
              '{\\"method\\":\\"eagle3\\",\\"model\\":\\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\",'
              '\\"num_speculative_tokens\\":3}\n--max-model-len 8192"\n'
              'vllm serve meta-llama/Llama-3.1-8B-Instruct $VLLM_ARGS\n')
    argv = split_command(script)
    assert argv[argv.index("--speculative-config") + 1].startswith('{"method":"eagle3"')
    assert argv[-2:] == ["--max-model-len", "8192"]


def test_a_multiline_value_given_in_two_branches_stays_unknown():
    script = ('if [ "$MTP" = 1 ]; then\n  SPEC="--speculative-algorithm EAGLE \\\n    --speculative-num-steps 3"\n'
              'else\n  SPEC=""\nfi\npython -m sglang.launch_server --model-path m $SPEC\n')
    assert "$SPEC" in split_command(script)


def test_a_quote_that_never_closes_is_still_one_clear_error():
    import pytest
    from spec_debug.diagnose.launch import LaunchParseError
    with pytest.raises(LaunchParseError, match="cannot split the launch command"):
        split_command('EXTRA="--speculative-num-steps 1 \\\n'
                      'python -m sglang.launch_server --model-path m $EXTRA\n')
