"""SGLang's NextN draft of a DeepseekV3ForCausalLM target asserts `num_nextn_predict_layers == 1` only
when the loaded config has the attribute (python/sglang/srt/models/deepseek_v2.py `load_weights(is_nextn=True)`);
without it SGLang raises another error ("num_nextn_predict_layers is not in the config"), or, where
the config class gives it a default, loads on. A config.json that does not name the count is no
"Only 1 nextn layer is supported" refusal: the launch step said so (SD102) for one; Kimi-K2's
explicit 0 still is."""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# moonshotai/Kimi-K2-Instruct config.json (the fields read here)
KIMI_K2 = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "kimi_k2", "num_nextn_predict_layers": 0,
           "num_hidden_layers": 61, "hidden_size": 7168, "vocab_size": 163840, "max_position_embeddings": 131072}
UNNAMED = {key: value for key, value in KIMI_K2.items() if key != "num_nextn_predict_layers"}
# SGLang's DeepSeek docs (docs/basic_usage/deepseek.md, "Multi-token Prediction") with Kimi-K2's model path
COMMAND = ("python -m sglang.launch_server --model-path moonshotai/Kimi-K2-Instruct --tp 16 --trust-remote-code "
           "--speculative-algorithm EAGLE --speculative-num-steps 3 --speculative-eagle-topk 1 "
           "--speculative-num-draft-tokens 4")


def _codes(config: dict) -> list[str]:
    facts = launch_step.parse({"source": "cli", "cmdline": COMMAND,
                               "models": {"moonshotai/Kimi-K2-Instruct": {"path": "/models/k2", "config": config}}})
    host = {**facts, "engine": {"name": "sglang", "version": "0.5.4"}}
    return [f.code for f in launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                                                           host_facts=host))]


def test_a_config_that_does_not_name_the_count_is_not_the_assertion():
    assert "SD102" not in _codes(UNNAMED)
    assert "SD102" in _codes(KIMI_K2)
