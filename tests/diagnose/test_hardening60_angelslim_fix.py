"""Layer fixes for AngelSlim-keyed drafts read back clean. A plain config's AngelSlim key
(aux_hidden_states_layer_ids, output-of: Tencent/AngelSlim angelslim/compressor/speculative/
train/models/target/target_model_wrapper.py captures hidden_states[layer_id + 1]) is where the
layer check reads the trained layers first (engines.trained_layer_ids). Two ways that went
wrong:

- the SGLang fix's ambiguity note (reads_back_as) was worked out with the AngelSlim key
  stripped, so a draft whose AngelSlim key is right was told "re-run without the dump, this
  check reads them as [2, 4, 6] and calls the fixed draft SD202", and the re-run was clean;
- a stale AngelSlim key (the training dump says other layers) was left out of the fix
  (LayerFix.nested covers the eagle_config key alone), so the fixed draft re-run without the
  dump was read from the stale key again: SD201/SD202 and the old ids proposed back.

Property, as tests/diagnose/test_hardening59_fix_reads_back.py, on the same worlds (a Llama
verifier and draft saved by speculators 0.9.0; a DeepseekV3ForCausalLM target): the fix the
configs step proposes, applied as said, re-runs with no layer finding."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.layers import analyse_layers, with_layer_ids  # noqa: E402
from tests.diagnose.test_hardening59_fix_reads_back import (  # noqa: E402
    NESTED, NL, RELEASES, TOP, TRAINED, _applied, _eagle_format, _layers, _release, worlds)

ANGELSLIM = "aux_hidden_states_layer_ids"
assert worlds  # the module fixture, shared
# what AngelSlim trained on, per its key: [1, 4, 6] output-of = layer-inputs [2, 5, 7]
STALE = [1, 4, 6]
# every layer-input list, those starting at 3 or later too: the AngelSlim key is read first, so
# no SGLang fix (nested ids from 2) is left for PR #25454's rule to read another way
EVERY = [list(t) for t in itertools.combinations(range(NL + 1), 3)]


def _angelslim(world: Path, ids: list[int], beside: list[int] | None = None) -> dict:
    """The plain config AngelSlim saves (a PretrainedConfig's config.json) with its key; with
    `beside`, engine ids under both engine keys too."""
    plain = _eagle_format(world, NESTED, beside) if beside else _eagle_format(world, TOP, [])
    plain.pop(TOP, None)
    if beside:
        plain[TOP] = beside
    return dict(plain, **{ANGELSLIM: ids})


def _applied_all(draft: dict, fix: dict) -> dict:
    fixed = _applied(draft, fix)
    if fix.get("angelslim") is not None:
        fixed = with_layer_ids(fixed, ANGELSLIM, fix["angelslim"][1])
    return fixed


@pytest.mark.parametrize("arch", ["LlamaForCausalLM", "DeepseekV3ForCausalLM"])
def test_a_right_angelslim_key_fix_says_no_false_ambiguity(worlds, arch):
    world, checked, left = worlds[arch], 0, []
    for (engine, version), trained in itertools.product(RELEASES, EVERY):
        start = _angelslim(world, [i - 1 for i in trained])
        found, layers = _layers(world, start, engine, version)
        fix = layers.get("fix")
        if not found or fix is None:
            continue
        release = _release(fix, version)
        again, read = _layers(world, _applied_all(start, fix), engine, release)
        checked += 1
        if again or read["trained"] != trained or fix.get("reads_back_as") is not None:
            left.append((engine, version, trained, fix, again, read["trained"]))
    assert checked > 50 and not left, left[:5]


@pytest.mark.parametrize("arch", ["LlamaForCausalLM", "DeepseekV3ForCausalLM"])
@pytest.mark.parametrize("beside", [None, [2, 5, 7]])
def test_a_fix_beside_a_stale_angelslim_key_reads_back_clean(worlds, arch, beside):
    world, checked, left = worlds[arch], 0, []
    for (engine, version), trained in itertools.product(RELEASES, TRAINED):
        if trained == [i + 1 for i in STALE]:
            continue
        start = _angelslim(world, STALE, beside)
        fix = analyse_layers(engine, version, start, NL, trained_layer_ids=trained,
                             target_architecture=arch).to_facts()["fix"]
        if fix is None:
            continue
        release = _release(fix, version)
        fixed = _applied_all(start, fix)
        again, read = _layers(world, fixed, engine, release)
        measured = analyse_layers(engine, release, fixed, NL, trained_layer_ids=trained,
                                  target_architecture=arch)
        checked += 1
        if fix.get("reads_back_as") is not None:
            if again != ["SD202"] or read["other_reading"] != trained or measured.mismatch:
                left.append((engine, version, trained, fix, again, read["other_reading"]))
        elif again or read["trained"] != trained or measured.mismatch:
            left.append((engine, version, trained, fix, release, again, read["trained"], read["served"]))
    assert checked > 50 and not left, left[:5]


def test_the_fix_names_the_stale_angelslim_key(worlds):
    start = _angelslim(worlds["LlamaForCausalLM"], STALE)
    fix = analyse_layers("sglang", "0.5.22", start, NL, trained_layer_ids=[1, 3, 5],
                         target_architecture="LlamaForCausalLM").fix
    assert (fix.key, fix.ids, fix.angelslim, fix.reads_back_as) == (NESTED, [0, 2, 4], (STALE, [0, 2, 4]), None)
    said = fix.remediation("sglang")
    assert f"set {ANGELSLIM} = [0, 2, 4]" in said and str(STALE) in said
