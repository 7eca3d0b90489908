"""SGLang's MTP flags on a DeepSeek-V3-architecture target that has no MTP layer (Kimi-K2).

SGLang takes the target itself as the draft of an EAGLE / NEXTN launch with no draft path on a
DeepseekV3ForCausalLM model (python/sglang/srt/server_args.py `_handle_eagle_family`) and loads it as
its NextN model, which asserts exactly one nextn layer (python/sglang/srt/models/deepseek_v2.py
`load_weights(is_nextn=True)`: "Only 1 nextn layer is supported"). Kimi-K2 is such a model with
num_nextn_predict_layers 0: the server does not start. The audit said nothing at
--speculative-num-steps 3 (and only "capped at one drafted token" at 1).
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# moonshotai/Kimi-K2-Instruct config.json (the fields read here)
KIMI_K2 = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "kimi_k2", "num_nextn_predict_layers": 0,
           "num_hidden_layers": 61, "hidden_size": 7168, "vocab_size": 163840, "max_position_embeddings": 131072}
# deepseek-ai/DeepSeek-V3-0324 config.json (the fields read here)
DEEPSEEK_V3 = {**KIMI_K2, "model_type": "deepseek_v3", "num_nextn_predict_layers": 1, "vocab_size": 129280,
               "max_position_embeddings": 163840}
# Kimi-K2's SGLang deployment command (MoonshotAI/Kimi-K2 docs/deploy_guidance.md) with the MTP flags
# of SGLang's DeepSeek docs (docs/basic_usage/deepseek.md, "Multi-token Prediction")
COMMAND = ("python -m sglang.launch_server --model-path {model} --tp 16 --trust-remote-code "
           "--tool-call-parser kimi_k2 --speculative-algorithm {algorithm} --speculative-num-steps 3 "
           "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")


def _findings(model: str, config: dict, algorithm: str = "EAGLE"):
    facts = launch_step.parse({"source": "cli", "cmdline": COMMAND.format(model=model, algorithm=algorithm),
                               "models": {model: {"path": "/models/" + model, "config": config}}})
    host = {**facts, "engine": {"name": "sglang", "version": "0.5.4"}}
    return launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host))


def test_kimi_k2_with_mtp_flags_and_no_draft_is_refused():
    for algorithm in ("EAGLE", "NEXTN"):
        [finding] = _findings("moonshotai/Kimi-K2-Instruct", KIMI_K2, algorithm)
        assert finding.code == "SD102"
        assert "has no MTP layer (num_nextn_predict_layers 0)" in finding.evidence[0]
        assert "Only 1 nextn layer is supported" in finding.evidence[0]


def test_deepseek_v3_with_its_mtp_layer_is_not():
    assert not [f for f in _findings("deepseek-ai/DeepSeek-V3-0324", DEEPSEEK_V3) if f.code == "SD102"]
