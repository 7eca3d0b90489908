"""vLLM `--speculative-config` given twice as whole JSON values: FlexibleArgumentParser hands both to
argparse, whose store action keeps the last one whole (vllm/utils/argparse_utils.py `parse_args`:
only dotted keys are merged, a repeated option is at most logged as "Found duplicate keys"). A
launch whose second value only sets the depth (`'{"num_speculative_tokens": 3}'`, written as if
it were merged into the first) runs a config with no draft and no method, which vLLM refuses at
startup. The audit said nothing; it now reports SD102 and says which value was dropped.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
FIRST = json.dumps({"method": "eagle3", "model": DRAFT})


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


def test_a_second_json_value_replaces_the_first_whole():
    command = (f"vllm serve {TARGET} --speculative-config '{FIRST}' -sc '{json.dumps({'num_speculative_tokens': 3})}'")
    [finding] = [f for f in _findings(command) if f.code == "SD102"]
    assert finding.title == "The engine refuses this launch command at startup"
    assert finding.evidence == [
        "the JSON --speculative-config given first (--speculative-config) is replaced by the one given last (-sc): "
        "argparse keeps the last value whole and merges nothing: --speculative-config {\"num_speculative_tokens\": 3} "
        "has num_speculative_tokens but no draft model and no method: vLLM refuses to start "
        "(\"num_speculative_tokens was provided but without speculative model\")"]


def test_a_complete_last_value_runs_as_written():
    last = json.dumps({"method": "eagle3", "model": DRAFT, "num_speculative_tokens": 3})
    command = f"vllm serve {TARGET} --speculative_config='{FIRST}' --speculative-config '{last}'"
    assert not [f for f in _findings(command) if f.code in ("SD101", "SD102")]


def test_one_json_value_and_a_port_stay_silent():
    command = (f"vllm serve {TARGET} --port 8000 --speculative-config "
               f"'{json.dumps({'method': 'eagle3', 'model': DRAFT, 'num_speculative_tokens': 3})}'")
    assert not [f for f in _findings(command) if f.code in ("SD101", "SD102")]
