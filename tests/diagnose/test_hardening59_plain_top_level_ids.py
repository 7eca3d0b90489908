"""A plain HF (EAGLE-format) draft whose ids sit under the top-level
eagle_aux_hidden_state_layer_ids key, the key vLLM reads raw (vllm v1/worker/gpu_model_runner.py
`_get_eagle3_aux_layers_from_config`) and the one the layer check writes its vLLM fix under.
trained_layer_ids gave those ids SpecForge's nested-key reading (first id 1 = output-of, +1),
so a draft trained on input-to [1, 3, 5] and fixed as the check said (top-level [1, 3, 5]) was
read back as [2, 4, 6] and told SD202 on the release the fix named. The world is saved by
speculators 0.9.0 (tests/eagle3/speculators_world.py); its config is turned into the EAGLE
format as tests/diagnose/test_hardening59_nested_embedding_id.py does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.deepseek_world import headers  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

TOP = "eagle_aux_hidden_state_layer_ids"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("plain_top_level_ids")
    save_verifier_and_draft(root)
    return root


def _plain(world: Path, **ids) -> dict:
    spec = json.loads((world / "draft" / "config.json").read_text())
    return dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=spec["draft_vocab_size"], **ids)


def _configs(world: Path, draft: dict, version: str) -> tuple[list, dict]:
    facts = configs_step.parse({
        "draft": {"found": True, "path": "draft", "config": draft,
                  "tensors": headers(world / "draft" / "model.safetensors")},
        "target": {"found": True, "path": "target",
                   "config": json.loads((world / "target" / "config.json").read_text())}})
    engine = {"engine": {"name": "vllm", "version": version}}
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts, host_facts={**engine, **facts}, vars={})
    return [f.code for f in configs_step.check(ctx)], facts["configs"].get("layers") or {}


def test_the_vllm_fix_for_a_draft_trained_from_layer_input_1_reads_back_clean(world):
    # a speculators draft trained on input-to [1, 3, 5]: vLLM serves its top-level ids raw
    trained = json.loads((world / "draft" / "config.json").read_text())
    trained[TOP] = [1, 3, 5]
    found, layers = _configs(world, trained, "latest")
    assert layers["trained"] == layers["served"] == [1, 3, 5] and "SD202" not in found
    # the same ids in a plain config, where vLLM reads them the same way: no shift either
    found, layers = _configs(world, _plain(world, **{TOP: [1, 3, 5]}), "latest")
    assert layers["trained"] == [1, 3, 5] == layers["served"]
    assert not [c for c in found if c in ("SD201", "SD202", "SD203")], found


def test_nested_ids_still_win_and_keep_the_output_of_reading(world):
    # SpecForge's nested [1, 3, 4] is input-to [2, 4, 5] whatever the top level says
    draft = _plain(world, **{TOP: [2, 4, 5]}, eagle_config={TOP: [1, 3, 4]})
    _, layers = _configs(world, draft, "latest")
    assert layers["trained"] == [2, 4, 5] == layers["served"]
