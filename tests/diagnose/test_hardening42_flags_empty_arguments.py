"""An empty argument of a running server (`--api-key ""`, a launcher's empty "$SPEC") is kept.

/proc/PID/cmdline ends each argument with a NUL, so an empty argument is an empty word between
two. The probe (launch_flags.server_processes) and the NUL-separated reading of a pasted cmdline
dropped every empty word: `vllm serve --api-key "" MODEL -sc '{...}'` became `--api-key MODEL`,
the target model lost (no target config read, nothing to compare the draft with), and
`--speculative-config ""` (vLLM's optional_type(json.loads): no config, the server runs without
speculation) read as the flag with no value, which argparse refuses. Runs the probe on fake vLLM
servers (sleeping processes with `vllm serve` command lines).
"""

from __future__ import annotations

import json
import sys

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.fake_servers import server_process

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
SPEC = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})
FAKE_VLLM = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "vllm.entrypoints.cli.main", "serve"]


def _probed(flags: list[str]) -> tuple[list[str], dict, list]:
    with server_process(FAKE_VLLM + flags) as process:
        (found,) = [p for p in launch_flags.server_processes() if p["pid"] == process["pid"]]
    facts = launch_step.parse({"source": f"/proc/{found['pid']}/cmdline", "argv": found["argv"], "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    return found["argv"], facts["launch"], launch_step.check(ctx)


def test_an_empty_value_keeps_the_model_after_it():
    argv, launch, _findings = _probed(["--api-key", "", TARGET, "-sc", SPEC])
    assert argv[-5:] == ["--api-key", "", TARGET, "-sc", SPEC]
    assert (launch["target_model"], launch["algorithm"], launch["num_steps"]) == (TARGET, "EAGLE3", 3)


def test_an_empty_speculative_config_is_a_server_without_speculation():
    argv, launch, findings = _probed([TARGET, "--speculative-config", ""])
    assert argv[-2:] == ["--speculative-config", ""]
    assert launch["found"] and launch["target_model"] == TARGET and launch["algorithm"] is None
    assert "SD004" not in [f.code for f in findings]


def test_a_pasted_cmdline_keeps_its_empty_arguments():
    raw = "\0".join(["vllm", "serve", "--api-key", "", TARGET, "-sc", SPEC]) + "\0"
    cfg = parse_launch_command(raw)
    assert (cfg.target_model, cfg.algorithm, cfg.num_steps) == (TARGET, "EAGLE3", 3)
    assert launch_flags.cmdline_argv(b"a\0\0b\0") == ["a", "", "b"]
