"""A draft path left as a variable the text does not set: SD101 says the config was not read.

A dstack service whose `env:` lists DRAFT_MODEL_ID with no value (dstack fills it in from
`dstack apply -e`, dstack docs "Environment variables") serves `--speculative-draft-model-path
$DRAFT_MODEL_ID`. SD101 said "the draft config does not say how many steps it was trained for",
which reads as a config read and found wanting; none was read.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SERVICE = """type: service
name: llama31-eagle3
image: lmsysorg/sglang:v0.5.2
env:
  - HF_TOKEN
  - DRAFT_MODEL_ID{draft}
commands:
  - python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3
      --speculative-draft-model-path $DRAFT_MODEL_ID
      --speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2
port: 8000
"""


def _sd101_last_line(text):
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    (finding,) = [f for f in launch_step.check(ctx) if f.code == "SD101"]
    return finding.evidence[-1]


def test_an_unset_draft_path_variable_is_said_unread():
    line = _sd101_last_line(SERVICE.format(draft=""))
    assert line.startswith("the draft path is $DRAFT_MODEL_ID, a variable") and "was not read" in line


def test_a_set_draft_path_is_not_said_a_variable():
    # (its config was not read either, and is said so: test_hardening73_draft_config_unread)
    line = _sd101_last_line(SERVICE.format(draft="=jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"))
    assert line.startswith("the draft config of jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B was not read")
    assert "variable" not in line
