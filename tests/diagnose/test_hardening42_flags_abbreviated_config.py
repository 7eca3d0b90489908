"""vLLM's `--speculative '{...}'` marks the speculative server, among several, for the audit.

vLLM's argparse keeps allow_abbrev on and --speculative-config is the one option of `vllm serve`
starting with `--speculative`, so `--speculative '{...}'` (and its dotted `--speculative.KEY`)
is --speculative-config, and the audit parses it so. But the test for "this command speculates"
(launch_flags.SPECULATIVE_FLAG) wanted a dash after `--speculative`: with a baseline server
beside the EAGLE-3 one (SD501 compares them), the /proc probe chose the first, the baseline, and
a script starting both had its baseline audited; no finding about the EAGLE-3 server either way.
Runs the probe on two fake vLLM servers (sleeping processes with `vllm serve` command lines).
"""

from __future__ import annotations

import json
import sys

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from tests.diagnose.fake_servers import server_process

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
SPEC = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})
FAKE_VLLM = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "vllm.entrypoints.cli.main", "serve", TARGET]


@pytest.mark.parametrize("flags", [
    ["--speculative", SPEC],
    [f"--speculative={SPEC}"],
    ["--speculative.method", "eagle3", "--speculative.model", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
     "--speculative.num_speculative_tokens", "3"],
])
def test_the_probe_chooses_the_server_with_the_abbreviated_config(flags):
    with server_process(FAKE_VLLM + ["--port", "8001"]) as baseline, \
            server_process(FAKE_VLLM + ["--port", "8002", *flags]) as eagle:
        ours = [p for p in launch_flags.server_processes() if p["pid"] in (baseline["pid"], eagle["pid"])]
        assert [p["pid"] for p in ours] == sorted([baseline["pid"], eagle["pid"]])
        chosen = launch_flags.choose_server(ours)
    assert chosen["pid"] == eagle["pid"]
    facts = launch_step.parse({"source": f"/proc/{chosen['pid']}/cmdline", "argv": chosen["argv"], "models": {}})
    assert (facts["launch"]["algorithm"], facts["launch"]["num_steps"]) == ("EAGLE3", 3)


def test_a_script_starting_a_baseline_and_the_abbreviated_server_audits_the_second():
    script = f"vllm serve {TARGET} --port 8001 &\nvllm serve {TARGET} --port 8002 --speculative '{SPEC}' &\nwait\n"
    cfg = parse_launch_command(script)
    assert (cfg.algorithm, cfg.num_steps, cfg.flags.get("port")) == ("EAGLE3", 3, "8002")
