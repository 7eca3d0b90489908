"""A draft of two decoder layers, as speculators trains one (Eagle3DraftModel builds
`range(transformer_layer_config.num_hidden_layers)` layers), served by a release whose
llama_eagle3.py builds one: SGLang 0.5.11 raises "EAGLE3 currently only supports 1 layer" in
LlamaForCausalLMEagle3.__init__ (0.5.12 builds every layer), vLLM 0.11.0 builds one layer and
fails on the stored layers.1.* (KeyError; 0.11.1 builds every layer) - PyPI wheels read. The
configs step said nothing; it now raises SD708 for those releases, and leaves a config whose
count the weights do not hold to SD704."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import _configs, world  # noqa: E402,F401


@pytest.fixture(scope="module")
def two_layer_world(tmp_path_factory):
    """target/ as the shared world saves it, draft/ a two-layer speculators draft over it."""
    import torch
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig
    from transformers import LlamaConfig

    from tests.eagle3.speculators_world import AUX, DV, V, save_verifier_and_draft

    root = tmp_path_factory.mktemp("two-layer")
    save_verifier_and_draft(root)
    shutil.rmtree(root / "draft")
    layer = LlamaConfig(num_hidden_layers=2, vocab_size=V, hidden_size=32, intermediate_size=64,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                        max_position_embeddings=128)
    config = Eagle3SpeculatorConfig(
        transformer_layer_config=layer, draft_vocab_size=DV, eagle_aux_hidden_state_layer_ids=AUX,
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy", verifier=VerifierConfig.from_pretrained(str(root / "target"))))
    draft = Eagle3DraftModel(config)
    selected = torch.sort(torch.randperm(V)[:DV]).values
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    draft.load_vocab_mappings(t2d, selected - torch.arange(DV))
    draft.load_verifier_weights()
    draft.eval().save_pretrained(root / "draft")
    return root


def _engine(name, version):
    return {"engine": {"name": name, "version": version}}


@pytest.mark.parametrize("name, version, failure", [
    ("sglang", "0.5.11", 'LlamaForCausalLMEagle3 raises "EAGLE3 currently only supports 1 layer"'),
    ("vllm", "0.11.0", "no parameter is there for layers.1.*: a KeyError while loading the weights"),
])
def test_a_two_layer_draft_on_a_one_layer_release_is_sd708(two_layer_world, name, version, failure):
    findings = _configs(two_layer_world, _engine(name, version))
    assert [(f.code, f.severity) for f in findings] == [("SD708", "error")]
    first = {"sglang": "0.5.12", "vllm": "0.11.1"}[name]
    assert findings[0].evidence == [
        f"transformer_layer_config.num_hidden_layers is 2: {name} {version} builds one EAGLE-3 decoder "
        f"layer and does not start with this draft ({failure}); {name} {first} is the first release "
        "that builds more"]
    assert findings[0].remediation.startswith(f"Serve the draft with {name} >= {first}")
    assert findings[0].facts["first_release"] == first


@pytest.mark.parametrize("name, version", [("sglang", "0.5.12"), ("sglang", None),
                                           ("vllm", "0.11.1"), ("vllm", None)])
def test_a_release_that_builds_every_layer_has_no_finding(two_layer_world, name, version):
    assert _configs(two_layer_world, _engine(name, version)) == []


def test_a_count_the_weights_do_not_hold_is_sd704_alone(tmp_path, world):
    root = tmp_path / "said-two"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["num_hidden_layers"] = 2
    path.write_text(json.dumps(config))
    assert [f.code for f in _configs(root, _engine("sglang", "0.5.11"))] == ["SD704"]
