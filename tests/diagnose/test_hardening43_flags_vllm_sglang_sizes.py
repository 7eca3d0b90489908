"""SGLang's `--tp-size` (and --pp-size, --dp-size, --ep-size) written on `vllm serve`.

vLLM spells these out (-tp / --tensor-parallel-size ...) and none of SGLang's names is a prefix
of a vLLM option, so argparse exits with "unrecognized arguments: --tp-size 2" and the server
never starts. The audit read the line as a server with tensor parallelism unknown and raised no
finding. It now reports SD102 with the flag vLLM takes instead."""

from __future__ import annotations

import argparse

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = '\'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}\''
COMMAND = f"vllm serve meta-llama/Llama-3.1-8B-Instruct --tp-size 2 --speculative-config {SPEC}"


def _launch(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


def test_argparse_has_no_tp_size_in_vllms_options():
    parser = argparse.ArgumentParser(exit_on_error=False, add_help=False)
    parser.add_argument("-tp", "--tensor-parallel-size", type=int)
    parser.add_argument("--speculative-config")
    _, unknown = parser.parse_known_args(["--tp-size", "2"])
    assert unknown == ["--tp-size", "2"]


def test_sglang_tp_size_on_vllm_is_a_refused_launch():
    problems = effective_spec(parse_launch_command(COMMAND)).problems
    assert problems == ["--tp-size: vLLM has no such option (it is SGLang's): argparse exits with 'unrecognized "
                        "arguments' and the server does not start; vLLM's is --tensor-parallel-size (-tp)"]
    [finding] = _launch(COMMAND)
    assert finding.code == "SD102"
    assert finding.evidence[0].startswith("--tp-size: vLLM has no such option (it is SGLang's)")


def test_vllms_own_spellings_stay_silent():
    for written in ("-tp 2", "-tp=2", "--tensor-parallel-size 2", "--tensor-parallel 2"):
        cfg = parse_launch_command(COMMAND.replace("--tp-size 2", written))
        assert cfg.tp == 2 and effective_spec(cfg).problems == []
