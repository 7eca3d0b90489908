"""A vLLM layer fix that rewrites or removes a plain config's stale eagle_config ids
(LayerFix.nested) changes what SGLang serves from that config too: SGLang reads that key
(sgl-project/sglang python/sglang/srt/models/llama.py adds 1 to every id; no list there gives
its default [2, N//2, N-3]). The fix said "(the same layers as SGLang reads that key)" for a
rewrite written in this check's reading alone: on a Llama target, for a draft trained on
layer-inputs [2, 4, 6], it wrote [2, 4, 6], which SGLang serves as [3, 5, 7], though [1, 3, 5]
reads as [2, 4, 6] both here and in SGLang. Where no list does both (Llama path ids from 3;
DeepSeek [1, 3, 5], removed) it said nothing of what SGLang then serves.

Property, on the worlds of tests/diagnose/test_hardening59_fix_reads_back.py (a Llama verifier
and draft saved by speculators 0.9.0; a DeepseekV3ForCausalLM target): for a config with stale
ids under both keys and the training dump's ids, every vLLM fix that changes the nested ids,
applied, is served by the newest SGLang on the target as trained, or the fix says what SGLang
serves instead (and never calls the rewrite the same layers)."""

from __future__ import annotations

import itertools

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.layers import analyse_layers  # noqa: E402
from spec_debug.eagle3 import engines  # noqa: E402
from tests.diagnose.test_hardening59_fix_reads_back import (  # noqa: E402
    NESTED, NL, STALE, _applied, _both_keys, _layers, _release, worlds)

assert worlds  # the module fixture, shared
EVERY = [list(t) for t in itertools.combinations(range(NL + 1), 3)]
VLLM = ("0.17.1", "0.22.0", "latest")


@pytest.mark.parametrize("arch", ["LlamaForCausalLM", "DeepseekV3ForCausalLM"])
def test_sglang_reading_of_a_changed_nested_list_is_said(worlds, arch):
    world, checked, left = worlds[arch], 0, []
    for version, trained in itertools.product(VLLM, EVERY):
        if trained == STALE:
            continue
        start = _both_keys(world, STALE)
        analysis = analyse_layers("vllm", version, start, NL, trained_layer_ids=trained,
                                  target_architecture=arch)
        fix = analysis.to_facts()["fix"]
        if fix is None or fix.get("nested") is None:
            continue
        checked += 1
        fixed = _applied(start, fix)
        sglang = engines.served_layer_ids("sglang", None, fixed, NL, arch)
        said = analysis.fix.remediation("vllm")
        if sglang == trained:
            ok = fix.get("sglang_serves") is None
        else:
            ok = (fix.get("sglang_serves") == sglang and f"serves {sglang}" in said
                  and "the same layers as SGLang" not in said)
        # the re-run without the dump still reads the trained layers
        again, read = _layers(world, fixed, "vllm", _release(fix, version))
        if not ok or again or read["trained"] != trained:
            left.append((version, trained, fix, sglang, again, read["trained"]))
    assert checked > 20 and not left, left[:5]


def test_a_llama_rewrite_from_layer_input_2_is_the_one_sglang_serves(worlds):
    start = _both_keys(worlds["LlamaForCausalLM"], STALE)
    fix = analyse_layers("vllm", "0.25.0", start, NL, trained_layer_ids=[2, 4, 6],
                         target_architecture="LlamaForCausalLM").fix
    assert (fix.nested, fix.sglang_serves) == ((STALE, [1, 3, 5]), None)
    assert f"set {NESTED} = [1, 3, 5] beside it (the same layers as SGLang" in fix.remediation("vllm")
