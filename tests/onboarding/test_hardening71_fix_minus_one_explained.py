"""The demo's SD201 fix, "Set eagle_config.eagle_aux_hidden_state_layer_ids = [-1, 1, 3] in the
draft's config.json and run sglang >= 0.5.22", left a newcomer puzzled by -1 (a layer id below
zero; the evidence calls the embedding output 0). The fix now says in one clause why: SGLang
adds 1 to each id it reads on that path (models/llama.py `[val + 1 for val in layer_ids]`), so
-1 is the embedding output. A fix whose ids do not start at -1 says nothing of it."""

from __future__ import annotations

from spec_debug.diagnose.checks import Where, check_aux_layers
from spec_debug.diagnose.checks.layers import analyse_layers
from tests.diagnose.test_checks import speculators_config

AT = Where(host="demo-gpu01", step="configs")


def _sd201(ids: list[int], n: int) -> str:
    a = analyse_layers("sglang", "0.5.12", speculators_config(eagle_aux_hidden_state_layer_ids=ids), n,
                       target_architecture="LlamaForCausalLM")
    found = [f for f in check_aux_layers(a, at=AT) if f.code in ("SD201", "SD202")]
    assert len(found) == 1, found
    return found[0].remediation or ""


def test_the_embedding_fix_says_why_it_starts_at_minus_one():
    fix = _sd201([0, 2, 4], 9)  # the demo's: trained on [embedding, 2, 4] of a 9-layer Llama target
    assert fix.startswith("Set eagle_config.eagle_aux_hidden_state_layer_ids = [-1, 1, 3] "
                          "(sglang adds 1 to each id it reads there, so -1 is the embedding output) "
                          "in the draft's config.json and run sglang >= 0.5.22; "), fix


def test_a_fix_without_minus_one_says_nothing_of_it():
    fix = _sd201([2, 30, 57], 61)
    assert "[1, 29, 56]" in fix and "-1 is the embedding output" not in fix, fix
