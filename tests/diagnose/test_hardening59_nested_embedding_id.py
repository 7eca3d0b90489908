"""A plain HF (EAGLE/SpecForge-format) draft whose nested ids start at -1, the spelling the
layer check itself proposes for a draft trained on the embedding output on SGLang's Llama path
(models/llama.py adds 1 to every id it reads, so -1 is served as id 0, the embedding output;
sgl-project/sglang python/sglang/srt/models/llama.py set_eagle3_layers_to_capture). Read back
on a re-run with no training dump, the -1 was taken as an input-to id no engine captures, so the
fixed draft was told SD202 on the very release the fix named, and SD201 "retrain" before it.
The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py) and its config is
turned into the EAGLE format as SpecForge writes it (tests/eagle3/test_world.py does the same)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.eagle3.speculators_world import NL, save_verifier_and_draft  # noqa: E402

KEY = "eagle_config.eagle_aux_hidden_state_layer_ids"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("nested_embedding_id")
    save_verifier_and_draft(root)
    return root


def _headers(path: Path) -> dict:
    from safetensors import safe_open

    with safe_open(str(path), "pt") as f:
        return {name: [list(f.get_slice(name).get_shape()), f.get_slice(name).get_dtype()]
                for name in f.keys()}


def _eagle_format(world: Path, nested_ids: list[int]) -> dict:
    """The speculators draft's config as an EAGLE/SpecForge LlamaForCausalLMEagle3 config."""
    spec = json.loads((world / "draft" / "config.json").read_text())
    return dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=spec["draft_vocab_size"],
                eagle_config={"eagle_aux_hidden_state_layer_ids": nested_ids})


def _configs(world: Path, draft: dict, version: str) -> tuple[list, dict]:
    facts = configs_step.parse({
        "draft": {"found": True, "path": "draft", "config": draft,
                  "tensors": _headers(world / "draft" / "model.safetensors")},
        "target": {"found": True, "path": "target",
                   "config": json.loads((world / "target" / "config.json").read_text())}})
    engine = {"engine": {"name": "sglang", "version": version}}
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts, host_facts={**engine, **facts}, vars={})
    found = configs_step.check(ctx)
    return [(f.code, f.severity) for f in found], facts["configs"].get("layers") or {}


def test_the_proposed_fix_for_an_embedding_trained_draft_reads_back_clean(world):
    # trained on [embedding, 2, 4] (speculators' input-to ids); SGLang 0.5.12 serves its default
    trained = json.loads((world / "draft" / "config.json").read_text())
    trained["eagle_aux_hidden_state_layer_ids"] = [0, 2, 4]
    found, layers = _configs(world, trained, "0.5.12")
    assert ("SD201", "error") in found
    fix = layers["fix"]
    assert (fix["key"], fix["ids"], fix["min_version"]) == (KEY, [-1, 1, 3], "0.5.22")
    # the user applies it to the EAGLE-format draft the engine loads and re-runs without a dump
    fixed = _eagle_format(world, fix["ids"])
    found, layers = _configs(world, fixed, "0.5.22")
    assert layers["trained"] == [0, 2, 4] and layers["served"] == [0, 2, 4]
    assert not [c for c in found if c[0] in ("SD201", "SD202", "SD203")], found
    # on the running release the embedding is still out of reach: SD201 and the same upgrade
    found, layers = _configs(world, fixed, "0.5.12")
    assert ("SD201", "error") in found and layers["trained"] == [0, 2, 4]
    assert (layers["fix"]["ids"], layers["fix"]["min_version"]) == ([-1, 1, 3], "0.5.22")


def test_nested_output_of_ids_without_the_embedding_still_read_as_before(world):
    # SpecForge's [1, 3, 4] is input-to [2, 4, 5]; an input-to list starting at 2 stays as it is
    _, layers = _configs(world, _eagle_format(world, [1, 3, 4]), "0.5.22")
    assert layers["trained"] == [2, 4, 5] == layers["served"]
    _, layers = _configs(world, _eagle_format(world, [2, 4, NL - 3]), "0.5.22")
    assert layers["trained"] == [2, 4, NL - 3]
