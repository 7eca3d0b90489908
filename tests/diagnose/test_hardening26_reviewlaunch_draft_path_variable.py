"""SD101 for a draft path holding a variable the audit leaves as written (review of 3260145).

`--speculative-draft-model-path $MODELS/eagle3` (a path under a variable) still said 'the draft
config does not say how many steps it was trained for', as if read and found wanting; only a
path that was the variable alone was said unread. And a one-line `DRAFT=/m/eagle3; python3 -m
sglang.launch_server ... $DRAFT` does set the variable (the audit reads only assignments on lines
of their own), so 'a variable whose value is not in this text' was false there.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVER = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path {draft} --speculative-num-steps 1 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 2")


def _sd101(command):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    (finding,) = [f for f in launch_step.check(ctx) if f.code == "SD101"]
    return finding.evidence[-1]


@pytest.mark.parametrize("draft", ["$MODELS/eagle3", "${MODELS}/EAGLE3-LLaMA3.1-Instruct-8B"])
def test_a_path_under_a_variable_is_said_unread(draft):
    line = _sd101(SERVER.format(draft=draft))
    assert line.startswith(f"the draft path is {draft}, a path under a variable left as written")
    assert "was not read" in line


def test_a_variable_set_on_the_servers_line_is_not_said_absent_from_the_text():
    line = _sd101("DRAFT=/models/eagle3; " + SERVER.format(draft="$DRAFT"))
    assert "was not read" in line and "not in this text" not in line


def test_a_written_path_is_not_said_a_variable():
    # (its config was not read either, and is said so: test_hardening73_draft_config_unread)
    line = _sd101(SERVER.format(draft="/models/eagle3"))
    assert line.startswith("the draft config of /models/eagle3 was not read") and "variable" not in line
