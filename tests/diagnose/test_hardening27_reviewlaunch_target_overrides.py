"""The launch audit reads the target config as the engine loads it: overrides on the line applied.

`--json-model-override-args '{"architectures": [...]}'` (SGLang) / `--hf-overrides` (vLLM) change the
model the engine builds; SGLang's auto-chosen (steps, topk, draft tokens) follow the overridden
architecture (server_args.py `get_hf_config` passes json_model_override_args). The throughput step
read them (steps.common.with_overrides); the launch audit read config.json alone and told a Llama
target's (5, 4, 8) for a server the override makes a Qwen3 one, (3, 1, 4) on SGLang 0.5.8+.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

LLAMA = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
         "num_hidden_layers": 32, "torch_dtype": "bfloat16", "vocab_size": 128256}
COMMAND = ("python -m sglang.launch_server --model-path org/target --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path org/draft")


def _launch(extra=""):
    facts = launch_step.parse({"source": "var", "cmdline": COMMAND + extra,
                               "models": {"org/target": {"path": "/hf/target", "config": LLAMA}}})
    host = {**facts, "engine": {"name": "sglang", "version": "0.5.9"}}
    launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host))
    return facts["launch"]


def test_an_architecture_override_decides_the_auto_chosen_steps():
    launch = _launch(" --json-model-override-args '{\"architectures\": [\"Qwen3ForCausalLM\"]}'")
    eff = launch["effective"]
    assert (eff["num_steps"], eff["topk"], eff["num_draft_tokens"]) == (3, 1, 4)
    assert launch["target_config"]["architectures"] == ["LlamaForCausalLM"]  # the file as read is kept


def test_no_override_reads_the_file():
    eff = _launch()["effective"]
    assert (eff["num_steps"], eff["topk"], eff["num_draft_tokens"]) == (5, 4, 8)
