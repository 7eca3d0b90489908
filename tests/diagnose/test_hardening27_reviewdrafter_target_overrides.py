"""The configs step compared the draft with the target's config.json as the file holds it,
not as the server loads it: a rope_scaling given on the launch line (vLLM --hf-overrides)
was not read, so a draft trained without YaRN beside a target served with YaRN factor 4 had
no SD703, and a draft with the target's served YaRN had a false one. throughput_step already
reads the overrides (served_configs); the configs step now does too."""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import configs_step
from spec_debug.probes.registry import ProbeContext

TARGET = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
          "num_hidden_layers": 8, "vocab_size": 128, "max_position_embeddings": 32768,
          "rope_theta": 1000000.0}
YARN = {"rope_type": "yarn", "factor": 4.0, "original_max_position_embeddings": 32768}
DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 64,
         "num_hidden_layers": 1, "vocab_size": 128, "draft_vocab_size": 64,
         "max_position_embeddings": 131072, "rope_theta": 1000000.0,
         "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 3, 5]}}
ARGV = ["vllm", "serve", "/models/target", "--hf-overrides",
        json.dumps({"rope_scaling": YARN, "max_position_embeddings": 131072})]


def _codes(draft: dict, argv: list[str]) -> list[str]:
    facts = configs_step.parse({"draft": {"found": True, "path": "d", "config": draft},
                                "target": {"found": True, "path": "t", "config": TARGET}})
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": "vllm", "version": "0.11.0"},
                                   "launch": {"argv": argv}, **facts}, vars={})
    return [f.code for f in configs_step.check(ctx)]


def test_a_rope_scaling_given_on_the_launch_line_is_compared():
    assert "SD703" in _codes(DRAFT, ARGV)  # target served with YaRN x4, the draft without
    assert "SD703" not in _codes({**DRAFT, "rope_scaling": YARN}, ARGV)


def test_without_overrides_the_file_is_compared_as_before():
    assert "SD703" not in _codes(DRAFT, ARGV[:3])
