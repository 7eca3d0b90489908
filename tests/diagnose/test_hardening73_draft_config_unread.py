"""SD101 says a draft config that was not read was not read, not that it "does not say" a depth.

`--speculative-num-steps 1` with a draft whose config.json the audit never read (a Hub id the
host's caches do not hold, a folder the probe could not see, a command audited with no host)
ended its SD101 with "the draft config does not say how many steps it was trained for": a
config read and found wanting, which sends the user to look in a config.json that may well say
3. Only a path holding a shell variable was said unread. Now a written path is said unread too;
a config that was read and names no depth keeps "does not say", and one that names it gives the
error with that depth.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# the demo draft's config, in the format SGLang loads (hardening75: a speculators config on SGLang is SD711,
# a server that does not start, with no SD101 beside it)
_DEMO_DRAFT = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo" / "draft" / "config.json"
_DRAFT = "/models/sglang-EAGLE3-LLaMA3.1-Instruct-8B"
_COMMAND = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
            f"EAGLE3 --speculative-draft-model-path {_DRAFT} --speculative-num-steps 1 --speculative-eagle-topk 1 "
            "--speculative-num-draft-tokens 2")


def _sd101(models: dict):
    facts = launch_step.parse({"source": "probe", "cmdline": _COMMAND, "models": models})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                       host_facts=dict(facts, engine={"name": "sglang", "version": "0.5.9"}))
    [finding] = [f for f in launch_step.check(ctx) if f.code == "SD101"]
    return finding


def test_a_draft_config_not_found_is_said_unread() -> None:
    finding = _sd101({})
    assert finding.severity == "warning"
    assert finding.evidence[-1] == (
        f"the draft config of {_DRAFT} was not read (its config.json was not found on the host, or the command "
        "was audited without a host), so how many steps the draft was trained for is not known")


def test_a_config_read_that_names_no_depth_does_not_say() -> None:
    config = json.loads(_DEMO_DRAFT.read_text())
    config.pop("num_lookahead_tokens")
    finding = _sd101({_DRAFT: {"found": True, "path": _DRAFT, "config": config}})
    assert finding.evidence[-1] == "the draft config does not say how many steps it was trained for"


def test_a_config_read_with_its_depth_is_the_error() -> None:
    config = copy.deepcopy(json.loads(_DEMO_DRAFT.read_text()))
    finding = _sd101({_DRAFT: {"found": True, "path": _DRAFT, "config": config}})
    assert finding.severity == "error" and finding.facts["trained_steps"] == 3
