"""A layer fix for a draft trained on 4 aux layers, served by vLLM from 0.22.0, was wrong.

vLLM's model runner V2 (the default for a dense Llama target from 0.23.0) reads the aux ids from
the top-level `eagle_aux_hidden_state_layer_ids` only, while models/llama_eagle3.py sizes fc
from `num_aux_hidden_states`, else the length of eagle_config's ids, else 3, never from the
top-level ids (vllm-project/vllm vllm/model_executor/models/llama_eagle3.py LlamaModel.__init__,
`self.num_aux_hidden_states = getattr(self.config, "num_aux_hidden_states", None)` ... `len(layer_ids)
if layer_ids else 3`; spec_debug.eagle3.engines fc_fan_in rows). The fix search tried the ids
alone, so for a 4-layer draft (an AngelSlim-only config, or one with no ids and a training dump)
on vLLM latest it found nothing on the running release and told the user to "run an older vllm,
>= 0.22.0 and < 0.23.0" with eagle_config ids. Writing the top-level ids together with
num_aux_hidden_states = 4 serves them on the running release, and on every release from 0.22.0
(the top-level key is read first by both runners): the fix now says so (LayerFix.num_aux).

World: a Llama verifier saved by transformers and a 4-aux Eagle3 draft over it saved by
speculators 0.9.0 (tests/eagle3/speculators_world.save_perturbed_draft), served as the plain
config AngelSlim saves."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.layers import analyse_layers  # noqa: E402
from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes.registry import ProbeContext  # noqa: E402
from tests.diagnose.deepseek_world import configs_facts, headers  # noqa: E402
from tests.eagle3.speculators_world import NL, save_verifier_and_draft  # noqa: E402

TOP = "eagle_aux_hidden_state_layer_ids"
ANGELSLIM = "aux_hidden_states_layer_ids"
TRAINED = [1, 3, 5, 7]  # layer-inputs; NL = 8, so the served default is [2, 4, 5]


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    from transformers import LlamaConfig

    from tests.eagle3.speculators_world import save_perturbed_draft

    base = tmp_path_factory.mktemp("fc_count_base")
    save_verifier_and_draft(base)
    root = tmp_path_factory.mktemp("fc_count")
    shutil.copytree(base / "target", root / "target")
    target = json.loads((root / "target" / "config.json").read_text())
    layer = LlamaConfig(**{k: target[k] for k in (
        "vocab_size", "hidden_size", "intermediate_size", "num_attention_heads",
        "num_key_value_heads", "head_dim", "max_position_embeddings")}, num_hidden_layers=1)
    save_perturbed_draft(root / "draft", root / "target", layer, aux=TRAINED, draft_vocab=128,
                         vocab=target["vocab_size"], seed_name="fc-count-4")
    return root


def _plain(world: Path, **keys) -> dict:
    """The draft's config as a plain (EAGLE-format) config, with `keys` and no other ids."""
    spec = json.loads((world / "draft" / "config.json").read_text())
    return dict(spec["transformer_layer_config"], architectures=["LlamaForCausalLMEagle3"],
                draft_vocab_size=spec["draft_vocab_size"], **keys)


def _check(world: Path, draft: dict, engine: str, version: str):
    facts = configs_facts(world, draft)
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": engine, "version": version}, **facts}, vars={})
    return configs_step.check(ctx), facts["configs"].get("layers") or {}


def test_the_world_is_a_four_layer_draft(world):
    spec = json.loads((world / "draft" / "config.json").read_text())
    hidden = spec["transformer_layer_config"]["hidden_size"]
    assert spec[TOP] == TRAINED
    assert headers(world / "draft" / "model.safetensors")["fc.weight"][0] == [hidden, 4 * hidden]


@pytest.mark.parametrize("version", ["latest", "0.25.0"])
def test_angelslim_four_layers_on_vllm_latest_is_fixed_on_the_running_release(world, version):
    draft = _plain(world, **{ANGELSLIM: [i - 1 for i in TRAINED]})
    findings, layers = _check(world, draft, "vllm", version)
    sd201 = [f for f in findings if f.code == "SD201"]
    assert len(sd201) == 1 and layers["trained"] == TRAINED and layers["served"] == [2, 4, 5]
    fix = layers["fix"]
    assert (fix["key"], fix["ids"], fix["min_version"], fix["before_version"]) == (TOP, TRAINED, None, None)
    assert fix["num_aux"] == ("num_aux_hidden_states", 4)
    said = sd201[0].remediation
    assert f"Set {TOP} = {TRAINED} and num_aux_hidden_states = 4 in the draft's config.json;" in said
    assert "older vllm" not in said

    # applied as said, on the running release: no layer finding and no fc-width finding
    fixed = dict(draft, **{TOP: fix["ids"], "num_aux_hidden_states": 4})
    again, read = _check(world, fixed, "vllm", version)
    assert [f.code for f in again if f.code in ("SD201", "SD202", "SD203", "SD204")] == []
    assert read["served"] == TRAINED and read["fc_fan_in"] == 4


def test_the_ids_alone_still_fail_fc_on_vllm_latest(world):
    # what the fix would have been without the count: vLLM builds fc for 3 and the checkpoint's
    # fc.weight (4 x hidden inputs) does not load
    draft = _plain(world, **{ANGELSLIM: [i - 1 for i in TRAINED], TOP: TRAINED})
    findings, layers = _check(world, draft, "vllm", "latest")
    assert [f.code for f in findings if f.code in ("SD201", "SD202", "SD203")] == []
    sd204 = [f for f in findings if f.code == "SD204"]
    assert len(sd204) == 1 and "builds fc for 3 aux layers; the draft has 4" in " ".join(sd204[0].evidence)


def test_no_ids_and_a_training_dump_on_vllm_latest(world):
    draft = _plain(world)
    analysis = analyse_layers("vllm", None, draft, NL, trained_layer_ids=TRAINED,
                              target_architecture="LlamaForCausalLM")
    assert analysis.served == [2, 4, 5]
    assert (analysis.fix.key, analysis.fix.ids, analysis.fix.min_version, analysis.fix.num_aux) == (
        TOP, TRAINED, None, ("num_aux_hidden_states", 4))


def test_an_older_vllm_fix_also_holds_on_later_releases(world):
    # vLLM 0.21 builds fc for 3 whatever the config: the fix names 0.22.0, and writes the
    # top-level key (read first from 0.11.1 by both runners), which the MRv2 runner that serves a
    # Llama target from 0.23.0 reads too; the eagle_config key it no longer reads
    draft = _plain(world)
    fix = analyse_layers("vllm", "0.21.0", draft, NL, trained_layer_ids=TRAINED,
                         target_architecture="LlamaForCausalLM").fix
    assert (fix.key, fix.ids, fix.min_version, fix.before_version, fix.num_aux) == (
        TOP, TRAINED, "0.22.0", None, ("num_aux_hidden_states", 4))
    fixed = dict(draft, **{TOP: fix.ids, "num_aux_hidden_states": 4})
    for release in ("0.22.0", "0.23.0", "0.25.0", "latest"):
        later = analyse_layers("vllm", release, fixed, NL, trained_layer_ids=TRAINED,
                               target_architecture="LlamaForCausalLM")
        assert later.served == TRAINED and later.fc_fan_in == 4, release


def test_a_speculators_config_takes_the_count_in_its_transformer_layer_config(world):
    # vLLM builds a speculators draft's hf_config from transformer_layer_config (vllm
    # transformers_utils/configs/speculators/algos.py update_eagle3 copies only its own keys)
    spec = dict(json.loads((world / "draft" / "config.json").read_text()), **{TOP: [2, 4, 5, 7]})
    fix = analyse_layers("vllm", None, spec, NL, trained_layer_ids=TRAINED,
                         target_architecture="LlamaForCausalLM").fix
    assert (fix.key, fix.ids, fix.num_aux) == (
        TOP, TRAINED, ("transformer_layer_config.num_aux_hidden_states", 4))


def test_a_three_layer_fix_writes_no_count(world):
    draft = _plain(world, **{ANGELSLIM: [0, 2, 4]})
    fix = analyse_layers("vllm", None, draft, NL, target_architecture="LlamaForCausalLM").fix
    assert (fix.key, fix.ids, fix.num_aux) == (TOP, [1, 3, 5], None)
    assert "num_aux_hidden_states" not in fix.remediation("vllm")
