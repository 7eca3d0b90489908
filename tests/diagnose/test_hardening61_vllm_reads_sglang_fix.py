"""The layer check's SGLang fix (eagle_config ids in SGLang's reading, e.g. [0, 2, 4] for
layer-inputs [1, 3, 5] on a Llama target, where models/llama.py adds 1) said nothing of vLLM,
which reads the same key raw when no top-level key is set: vLLM's V1 runner from 0.22.0
(vllm-project/vllm vllm/v1/worker/gpu_model_runner.py `_get_eagle3_aux_layers_from_config`)
serves that config as [0, 2, 4], the embedding first. LayerFix.sglang_serves says the other way
round; now LayerFix.vllm_serves names the vLLM releases that read the fixed key and what they
serve, and the remediation says it.

Property on the worlds of tests/diagnose/test_hardening59_fix_reads_back.py (a Llama verifier
and draft saved by speculators 0.9.0; a DeepseekV3ForCausalLM target): for every SGLang fix the
configs step proposes, applied as said, each vLLM release the configs step is run at either
serves the trained layers, reads another key, or is named in the fix with what it serves."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.layers import analyse_layers  # noqa: E402
from spec_debug.eagle3 import engines  # noqa: E402
from tests.diagnose.test_hardening59_fix_reads_back import (  # noqa: E402
    NESTED, NL, RELEASES, TRAINED, _applied, _eagle_format, _layers, _release, worlds)

assert worlds  # the module fixture, shared
VLLM = ["0.17.1", "0.22.0", "0.22.5", "0.23.0", "0.24.0", "0.25.0", "0.27.0", "0.28.0", "0.29.0", "latest"]


def _covers(ranges, version: str):
    at = engines.parse_version(version)
    for lo, hi, ids in ranges or ():
        if engines.parse_version(lo) <= at and (hi is None or at < engines.parse_version(hi)):
            return ids
    return None


def test_the_llama_fix_names_vllm_0_22_serving_the_embedding(worlds):
    world = worlds["LlamaForCausalLM"]
    start = _eagle_format(world, NESTED, [3, 5, 7])  # served by SGLang as [4, 6, 8]
    _found, layers = _layers(world, start, "sglang", "latest")
    assert layers["trained"] == [3, 5, 7]
    # a dump saying [1, 3, 5] instead: the fix writes [0, 2, 4]
    fix = analyse_layers("sglang", "latest", start, NL, trained_layer_ids=[1, 3, 5],
                         target_architecture="LlamaForCausalLM").fix
    assert fix.ids == [0, 2, 4]
    assert fix.vllm_serves == [("0.22.0", "0.23.0", [0, 2, 4])]
    assert "vLLM >= 0.22.0 and < 0.23.0 serves [0, 2, 4]" in fix.remediation("sglang")


@pytest.mark.parametrize("arch", ["LlamaForCausalLM", "DeepseekV3ForCausalLM"])
def test_every_sglang_fix_says_what_vllm_serves_from_it(worlds, arch):
    world, checked, named, left = worlds[arch], 0, 0, []
    for (engine, version), trained in ((r, t) for r in RELEASES if r[0] == "sglang" for t in TRAINED):
        # a plain draft whose eagle_config names other layers; the training dump says `trained`
        start = _eagle_format(world, NESTED, [5, 6, 7])
        fix = analyse_layers(engine, version, start, NL, trained_layer_ids=trained,
                             target_architecture=arch).to_facts()["fix"]
        if fix is None or fix["key"] != NESTED:
            continue
        fixed = _applied(start, fix)
        for vllm in VLLM:
            _again, read = _layers(world, fixed, "vllm", vllm)
            said = _covers(fix.get("vllm_serves"), vllm)
            checked += 1
            reads_fix = read["config_key"] == NESTED and read["served"] != trained
            named += said is not None
            if (said if reads_fix else None) != (read["served"] if reads_fix else None) or \
                    (said is not None and not reads_fix):
                left.append((version, trained, fix["ids"], vllm, read["served"], said))
    assert checked > 50 and named > 5 and not left, left[:5]
