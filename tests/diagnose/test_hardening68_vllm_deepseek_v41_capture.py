"""An EAGLE-3 draft over a DeepSeek-V4.1 target (DeepseekV41ForCausalLM) on vLLM.

vLLM 0.30.0 .. 0.34.0 (PyPI wheels; 0.29.0 has no such entry) register "DeepseekV41ForCausalLM": ("vllm.models.deepseek_v41", ...), a
SupportsEagle3 class whose DeepseekV4Model (nvidia/model.py) hands `capture_previous_aux=idx in
self.aux_hidden_state_layers` to layer idx: that layer captures the post of layer idx-1, and layer 0
(its `residual is None` branch, fed the embedding) captures nothing, so id 0 is left out of the aux
list; `_collapse` captures end_layer (id N). amd/model.py: `idx + 1` after layer idx, and end_layer.

The table took the class for a Llama-like (EagleModelMixin) target: id 0 planned as served (the
embedding output), where the server hands the draft one aux state fewer than its fc expects.
"""

from __future__ import annotations

import pytest

from spec_debug.eagle3 import engines

V41 = "DeepseekV41ForCausalLM"
N = 61


@pytest.mark.parametrize("version", ["0.30.0", "0.34.0"])
def test_id_0_is_never_captured_and_id_n_is(version):
    plan = engines.serve_plan("vllm", version, {"eagle_aux_hidden_state_layer_ids": [0, 30, N]}, N, V41)
    assert (plan.layer_ids, plan.unreachable, plan.fan_in_mismatch) == ([30, N], [0], True)
    assert engines.convention("vllm", "captures_embedding", version, V41) is False
    assert engines.convention("vllm", "captures_final", version, V41) is True
    assert engines.serve_plan("vllm", version, {"eagle_aux_hidden_state_layer_ids": [1, 30, 60]}, N,
                              V41).layer_ids == [1, 30, 60]
    assert engines.capture_failure("vllm", V41, version) is None
