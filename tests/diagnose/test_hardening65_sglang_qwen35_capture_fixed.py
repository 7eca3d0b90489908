"""SGLang serves an EAGLE-3 draft over a Qwen3.5 target from 0.5.22.

PyPI wheels read: up to 0.5.21 (0.5.17 .. 0.5.21) qwen3_5.py's Qwen3_5ForCausalLM has no
set_eagle3_layers_to_capture and qwen3_vl.py's set_eagle3_layers_to_capture only writes
`self.model.layers_to_capture`, so no layer is flagged `_is_layer_to_capture` and EAGLE3 fails with
"too many values to unpack" (sgl-project/sglang#38307). 0.5.22 (and 0.5.23) add
Qwen3_5ForCausalLM.set_eagle3_layers_to_capture (it flags each layer; Qwen3_5MoeForCausalLM
subclasses it), and qwen3_vl.py hands it the [val + 1 for val in ids] when the language model has
the method; a flagged layer captures its input at attn_boundary.prepare, as llama.py does. The table
refused Qwen3.5 on every SGLang release, the newest (and an unknown one) included."""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

ARCHS = ["Qwen3_5ForConditionalGeneration", "Qwen3_5MoeForConditionalGeneration"]
# a SpecForge draft for Qwen3.5-27B (64 layers), ids in its nested eagle_config
DRAFT = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "num_hidden_layers": 1,
         "hidden_size": 5120, "eagle_config": {"eagle_aux_hidden_state_layer_ids": [1, 31, 60]}}


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("version", ["0.5.22", "0.5.23", None, "0.5.21.post1.dev4+g0123abc"])
def test_from_0_5_22_sglang_captures_the_layers_as_llama_does(arch, version):
    assert engines.capture_failure("sglang", arch, version) is None
    plan = engines.serve_plan("sglang", version, DRAFT, 64, arch)
    assert plan.layer_ids == [2, 32, 61] and plan.unreachable == []


@pytest.mark.parametrize("arch", ARCHS)
@pytest.mark.parametrize("version", ["0.5.21", "0.5.17"])
def test_up_to_0_5_21_it_captures_nothing_and_the_way_out_names_0_5_22(arch, version):
    failure = engines.capture_failure("sglang", arch, version)
    assert failure is not None
    assert failure.reason == (f"SGLang {version} captures no aux hidden state of a {arch} target: EAGLE3 fails at "
                              "startup (ValueError: too many values to unpack, sgl-project/sglang#38307)")
    assert failure.fix == ("upgrade SGLang to 0.5.22 or later (its qwen3_5.py flags the layers to capture), serve the "
                           "draft with vLLM, or the target's own MTP head with --speculative-algorithm NEXTN")
    assert engines.serve_plan("sglang", version, DRAFT, 64, arch).layer_ids == []
