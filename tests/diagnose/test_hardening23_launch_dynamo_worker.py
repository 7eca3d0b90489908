"""Dynamo's older SGLang workers (`python3 -m dynamo.sglang.worker` / `.decode_worker`) (session 14).

Dynamo up to 0.4 started SGLang through these modules, each parsing SGLang's own flags into
ServerArgs (ai-dynamo/dynamo components/backends/sglang/src/dynamo/sglang/worker/main.py:
`server_args = parse_sglang_args_inc(sys_argv)`); its docs and the DeepSeek wide-EP example run
them. They were 'not an SGLang or vLLM server command'.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

FLAGS = ("--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
         "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 1 "
         "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --page-size 16 --tp 1 --skip-tokenizer-init")


@pytest.mark.parametrize("module", ["dynamo.sglang.worker", "dynamo.sglang.decode_worker"])
def test_the_worker_module_takes_sglangs_flags(module):
    command = f"python3 -m {module} \\\n  {FLAGS}"
    cfg = parse_launch_command(command)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps, cfg.page_size) == ("sglang", "EAGLE3", 1, 16)
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    assert "SD101" in [f.code for f in launch_step.check(ctx)]
