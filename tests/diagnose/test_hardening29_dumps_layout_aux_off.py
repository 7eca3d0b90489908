"""A draft config with eagle_config.use_aux_hidden_state = false: SGLang captures no aux layer
and vLLM builds no fc (sglang eagle_worker.py / model_runner.py, vllm llama_eagle3.py; the
configs step raises SD204). The layout step still planned the served layers as if captured
and compared them with the training dump, raising SD202 / SD203 whose fix (change the layer
ids) nothing reads. It now says the comparison does not apply."""

from __future__ import annotations

from spec_debug.diagnose.steps import layout_step
from spec_debug.probes.registry import ProbeContext

TARGET = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 64,
          "num_hidden_layers": 32, "vocab_size": 128}


def _draft(use_aux: bool) -> dict:
    """A SpecForge-style draft config.json (llama, ids under eagle_config)."""
    return {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama",
            "hidden_size": 64, "num_hidden_layers": 1, "num_attention_heads": 4,
            "num_key_value_heads": 2, "intermediate_size": 128, "vocab_size": 128,
            "draft_vocab_size": 64, "max_position_embeddings": 2048,
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": [3, 10, 20],
                             "use_aux_hidden_state": use_aux}}


def _codes(engine: tuple[str, str], use_aux: bool) -> list[str]:
    ranked = [{"layout": [0, 1, 2], "layer_ids": [3, 10, 20], "full_accuracy0": 0.7},
              {"layout": [1, 0, 2], "layer_ids": [10, 3, 20], "full_accuracy0": 0.2}]
    training = {"best": [0, 1, 2], "configured": [0, 1, 2], "configured_accuracy0": 0.7,
                "verdict": "configured layout slots [0, 1, 2] scores best",
                "dump_layer_ids": [3, 10, 20, 32], "ranked": ranked, "samples": 4}
    facts = {"layout": {"num_target_layers": 32, "training": training}}
    host_facts = {"engine": {"name": engine[0], "version": engine[1]}, "launch": {"argv": []},
                  "configs": {"draft_config": _draft(use_aux), "target_config": TARGET}}
    findings = layout_step.check(ProbeContext(step_id="s", host="h", args={}, facts=facts,
                                              host_facts=host_facts, vars={}))
    return [f.code for f in findings], findings


def test_no_served_layer_finding_when_the_draft_turns_aux_states_off():
    for engine in (("sglang", "0.5.0"), ("vllm", "0.11.0")):
        on, _ = _codes(engine, True)
        assert {"SD202", "SD203"} & set(on), (engine, on)  # the control: ids planned and compared
        off, findings = _codes(engine, False)
        assert not {"SD201", "SD202", "SD203", "SD402"} & set(off), (engine, off)
        assert any("use_aux_hidden_state = false" in line for f in findings
                   for line in f.evidence), (engine, off)
