"""A layer fix that needs a later release named only its first release, and a release after it
reads the written ids another way.

A draft over a DeepSeek-V3 target trained on four layer-inputs [1, 8, 16, 24], checked on SGLang
0.4.9: find_layer_fix found eagle_config ids [0, 7, 15, 23] (SGLang's +1) on 0.5.12 (the first
release that sizes fc from the id count) and said "run sglang >= 0.5.12". From 0.5.13
models/deepseek_v2.py adds 1 only to a list starting at 1 (sgl-project/sglang#25454; the table's
SGLANG_PLUS_ONE_FIX row), so 0.5.13 and later serve [0, 7, 15, 23] (0 being the embedding, not
captured there): the fix is wrong on every release after 0.5.12. The fix now asks the table at
each later rule boundary and names the range it holds for ("and < 0.5.13")."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.layers import find_layer_fix, with_layer_ids, _with_value
from spec_debug.eagle3 import engines

N = 32
SPECULATORS = {"speculators_model_type": "eagle3", "architectures": ["Eagle3Speculator"],
               "transformer_layer_config": {"model_type": "llama", "hidden_size": 4096, "num_hidden_layers": 1}}
PLAIN = {"architectures": ["LlamaForCausalLMEagle3"], "hidden_size": 4096, "num_hidden_layers": 1}


@pytest.mark.parametrize("draft", [SPECULATORS, PLAIN])
def test_the_fix_names_the_release_range_it_holds_for(draft):
    trained = [1, 8, 16, 24]
    fix = find_layer_fix("sglang", "0.4.9", draft, N, trained, "DeepseekV3ForCausalLM")
    assert (fix.key, fix.ids, fix.min_version, fix.until_version) == (
        engines.NESTED_KEY, [0, 7, 15, 23], "0.5.12", "0.5.13")
    assert ("run sglang >= 0.5.12 and < 0.5.13 (from 0.5.13 sglang reads these ids another way)"
            in fix.remediation("sglang"))
    # what the table says of the written config, either side of the bound
    written = with_layer_ids(draft, fix.key, fix.ids)
    if fix.num_aux:
        written = _with_value(written, *fix.num_aux)
    assert engines.served_layer_ids("sglang", "0.5.12", written, N, "DeepseekV3ForCausalLM") == trained
    assert engines.served_layer_ids("sglang", "0.5.13", written, N, "DeepseekV3ForCausalLM") != trained


def test_a_fix_every_later_release_keeps_names_no_bound():
    fix = find_layer_fix("sglang", "0.4.9", SPECULATORS, N, [1, 8, 16, 24], "LlamaForCausalLM")
    assert fix.min_version == "0.5.12" and fix.until_version is None
    assert "and <" not in fix.remediation("sglang")
