"""Every layer fix the check proposes, applied and re-run, is clean. The check said "set
eagle_config ids [0, 2, 4]" for a draft trained on layer-inputs [1, 3, 5] of a Llama target
(SGLang's models/llama.py adds 1 to every id it reads), then, re-run on that fixed config with no
training dump, read [0, 2, 4] as input-to (the embedding first) and called the fixed draft SD202
with a second fix, [-1, 1, 3]. On a DeepSeek-family target the same nested [0, ...] is the
embedding from SGLang 0.5.13 (deepseek_v2.py adds 1 only to a list starting at 1, PR #25454):
the reading of a first 0 (or 1) follows what the newest SGLang does with it on the config's
target, the reading the fix is written in. A fix for an older release that adds 1 where the
newest does not (DeepSeek before 0.5.13) cannot be told apart by the config alone: that fix,
and the SD202 its re-run gets, say so (the other reading) instead of guessing.

Property: for each world the tests build with the real libraries (a Llama verifier and draft
saved by speculators 0.9.0, tests/eagle3/speculators_world.py; a DeepseekV3ForCausalLM target,
tests/diagnose/deepseek_world.py), every trained list starting at layer-input 0, 1 or 2, and
every engine release where the rules change, take the fix the configs step proposes, write it
into the EAGLE-format config the engine loads, re-run the configs step on the release the fix
names (no dump) and the layer check with the training dump's ids: no layer finding. Trained
lists starting at 3 or later on a release that adds 1 are left out: their fix starts at 2,
which PR #25454's rule reads as input-to (a config alone cannot tell the two apart)."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.layers import analyse_layers  # noqa: E402
from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.deepseek_world import configs_facts, save_deepseek_world  # noqa: E402
from tests.eagle3.speculators_world import NL, save_verifier_and_draft  # noqa: E402

TOP = "eagle_aux_hidden_state_layer_ids"
LAYER_CODES = ("SD201", "SD202", "SD203")
RELEASES = [("sglang", v) for v in ("0.5.12", "0.5.13", "0.5.21", "0.5.22", "latest")] + [
    ("vllm", v) for v in ("0.17.1", "0.22.0", "latest")]
# layer-input lists a draft may be trained on (NL = 8 layers; N itself, the final output, too)
TRAINED = [list(t) for t in itertools.combinations(range(NL + 1), 3) if t[0] <= 2]


@pytest.fixture(scope="module")
def worlds(tmp_path_factory) -> dict[str, Path]:
    llama = tmp_path_factory.mktemp("fix_reads_back_llama")
    save_verifier_and_draft(llama)
    return {"LlamaForCausalLM": llama,
            "DeepseekV3ForCausalLM": save_deepseek_world(tmp_path_factory.mktemp("fix_reads_back_ds"), [0, 3, 5])}


def _speculators(world: Path, trained: list[int]) -> dict:
    return dict(json.loads((world / "draft" / "config.json").read_text()), **{TOP: trained})


def _eagle_format(world: Path, key: str, ids: list[int]) -> dict:
    """The draft's config as the EAGLE/SpecForge LlamaForCausalLMEagle3 config SGLang loads,
    with the fix's ids under its key and no other ids."""
    spec = json.loads((world / "draft" / "config.json").read_text())
    plain = dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                 draft_vocab_size=spec["draft_vocab_size"])
    if key.startswith("eagle_config."):
        return dict(plain, eagle_config={key.split(".", 1)[1]: ids})
    return dict(plain, **{key: ids})


def _layers(world: Path, draft: dict, engine: str, version: str) -> tuple[list[str], dict]:
    facts = configs_facts(world, draft)
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": engine, "version": version}, **facts}, vars={})
    found = [f.code for f in configs_step.check(ctx) if f.code in LAYER_CODES]
    return found, facts["configs"].get("layers") or {}


def _release(fix: dict, running: str) -> str:
    if fix["before_version"]:
        return fix["min_version"] or "0.4.9"
    return fix["min_version"] or running


@pytest.mark.parametrize("arch", ["LlamaForCausalLM", "DeepseekV3ForCausalLM"])
def test_every_proposed_fix_reads_back_clean(worlds, arch):
    world, checked, left = worlds[arch], 0, []
    for (engine, version), trained in itertools.product(RELEASES, TRAINED):
        found, layers = _layers(world, _speculators(world, trained), engine, version)
        fix = layers.get("fix")
        if not found or fix is None:
            continue
        release = _release(fix, version)
        fixed = _eagle_format(world, fix["key"], fix["ids"])
        again, read = _layers(world, fixed, engine, release)
        measured = analyse_layers(engine, release, fixed, NL, trained_layer_ids=trained,
                                  target_architecture=arch)
        checked += 1
        if fix.get("reads_back_as") is not None:
            # said up front; the re-run names the reading the fix was written in
            if again != ["SD202"] or read["other_reading"] != trained or measured.mismatch:
                left.append((engine, version, trained, fix, release, again, read["other_reading"]))
        elif again or read["trained"] != trained or measured.mismatch:
            left.append((engine, version, trained, fix, release, again, read["trained"], read["served"]))
    assert checked > 50 and not left, left[:5]


def test_the_llama_fix_from_layer_input_1_is_read_output_of(worlds):
    world = worlds["LlamaForCausalLM"]
    found, layers = _layers(world, _speculators(world, [1, 3, 5]), "sglang", "latest")
    assert found == ["SD201"] and layers["fix"]["ids"] == [0, 2, 4]
    again, read = _layers(world, _eagle_format(world, layers["fix"]["key"], [0, 2, 4]), "sglang", "latest")
    assert (again, read["trained"], read["served"]) == ([], [1, 3, 5], [1, 3, 5])


def test_a_nested_first_0_is_the_embedding_on_deepseek_and_a_release_before_0_5_13_is_said(worlds):
    world = worlds["DeepseekV3ForCausalLM"]
    fixed = _eagle_format(world, "eagle_config." + TOP, [0, 3, 5])
    again, read = _layers(world, fixed, "sglang", "0.5.22")
    assert (again, read["trained"], read["served"]) == ([], [0, 3, 5], [0, 3, 5])
    # the embedding fix applied but 0.5.12 still running (deepseek_v2.py adds 1 to every id):
    # SD202 as before, with the other reading named, not silence
    again, read = _layers(world, fixed, "sglang", "0.5.12")
    assert (again, read["trained"], read["served"]) == (["SD202"], [0, 3, 5], [1, 4, 6])
    assert read["other_reading"] == [1, 4, 6] and read["fix"]["min_version"] == "0.5.22"


# a plain config with ids under both keys, neither what the training dump says: the nested ones
# are what this check (and SpecForge) reads the trained layers from without the dump
STALE = [2, 5, 7]
NESTED = "eagle_config." + TOP


def _both_keys(world: Path, ids: list[int]) -> dict:
    return dict(_eagle_format(world, NESTED, ids), **{TOP: ids})


def _applied(draft: dict, fix: dict) -> dict:
    """`draft` as a user edits it after reading the fix: its key and, where it names the
    nested ids, those replaced or removed."""
    from spec_debug.diagnose.checks.layers import with_layer_ids

    fixed = with_layer_ids(draft, fix["key"], fix["ids"])
    if fix.get("nested") is not None:
        _stale, write = fix["nested"]
        if write is not None:
            fixed = with_layer_ids(fixed, NESTED, write)
        else:
            fixed["eagle_config"] = {k: v for k, v in fixed["eagle_config"].items() if k != TOP}
    return fixed


@pytest.mark.parametrize("arch", ["LlamaForCausalLM", "DeepseekV3ForCausalLM"])
def test_a_top_level_fix_beside_stale_nested_ids_reads_back_clean(worlds, arch):
    # the dump says `trained`; the config holds STALE under both keys. A vLLM fix wrote the
    # top-level key and left the nested STALE, so the re-run without the dump read STALE as
    # trained, called the fixed draft SD202 and proposed STALE back
    world, checked, left = worlds[arch], 0, []
    for (engine, version), trained in itertools.product(RELEASES, TRAINED):
        if trained == STALE:
            continue
        start = _both_keys(world, STALE)
        fix = analyse_layers(engine, version, start, NL, trained_layer_ids=trained,
                             target_architecture=arch).to_facts()["fix"]
        if fix is None:
            continue
        release = _release(fix, version)
        fixed = _applied(start, fix)
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


def test_the_vllm_fix_names_the_stale_nested_ids(worlds):
    world = worlds["LlamaForCausalLM"]
    start = _both_keys(world, STALE)
    analysis = analyse_layers("vllm", "0.25.0", start, NL, trained_layer_ids=[1, 3, 5],
                              target_architecture="LlamaForCausalLM")
    fix = analysis.fix
    assert (fix.key, fix.ids, fix.nested) == (TOP, [1, 3, 5], (STALE, [0, 2, 4]))
    said = fix.remediation("vllm")
    assert f"set {NESTED} = [0, 2, 4]" in said and str(STALE) in said
