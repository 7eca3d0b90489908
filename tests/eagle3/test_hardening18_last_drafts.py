"""Two drafts the EAGLE-3 drafter cannot score, named for what they are: a P-EAGLE draft
(parallel drafting, vLLM PR #32887) as speculators saves it and as vLLM flattens its config,
and a draft of its own width (hidden_size != target_hidden_size) saved without its
embedding."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3._world import informative_world
from tests.eagle3.speculators_world import AUX, DV, V

runner = CliRunner()


world = informative_world("hardening18_last", seed=18)


def _drafter(*args: str):
    result = runner.invoke(drafter_app, list(args))
    assert "Traceback" not in result.output, result.output
    return result.exit_code, " ".join(result.output.split())


def _speculators_config(world: Path, algorithm: str, layer, **fields):
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig

    layer._attn_implementation = "eager"
    return dict(transformer_layer_config=layer, draft_vocab_size=DV,
                eagle_aux_hidden_state_layer_ids=AUX, **fields,
                speculators_config=SpeculatorsConfig(
                    algorithm=algorithm,
                    proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=7)],
                    default_proposal_method="greedy",
                    verifier=VerifierConfig.from_pretrained(str(world / "target"))))


def _layer(hidden: int, heads: int, kv_heads: int, layers: int = 1):
    from transformers import LlamaConfig

    return LlamaConfig(num_hidden_layers=layers, vocab_size=V, hidden_size=hidden,
                       intermediate_size=64, num_attention_heads=heads,
                       num_key_value_heads=kv_heads, head_dim=8, max_position_embeddings=128)


@pytest.fixture(scope="module")
def peagle(world) -> Path:
    """A 2-layer P-EAGLE draft saved by speculators 0.9.0 (PEagleDraftModel,
    src/speculators/models/peagle): speculators_model_type "peagle", mask_token_id."""
    import torch
    from speculators.models.peagle import PEagleDraftModel, PEagleSpeculatorConfig

    torch.manual_seed(0)
    config = PEagleSpeculatorConfig(**_speculators_config(
        world, "peagle", _layer(32, 4, 2, layers=2), mask_token_id=7))
    model = PEagleDraftModel(config)
    selected = torch.sort(torch.randperm(V)[:DV]).values
    t2d = torch.zeros(V, dtype=torch.bool)
    t2d[selected] = True
    model.load_vocab_mappings(t2d, selected - torch.arange(DV))
    model.load_verifier_weights()
    model.eval().save_pretrained(world / "peagle")
    return world / "peagle"


def test_speculators_peagle_draft_is_named_with_how_it_is_served(world, peagle):
    """Before: "speculators_model_type is 'peagle', not 'eagle3'", nothing on what it is or
    how to serve it. Now: a P-EAGLE draft, and vLLM's eagle3 + parallel_drafting."""
    for command in (["vocab"], ["eval", "--data", str(world / "data")]):
        code, text = _drafter(*command, "--model", str(peagle), "--target", str(world / "target"))
        assert code == 2, text
        assert "a P-EAGLE (parallel drafting) draft (PEagleDraftModel, mask_token_id 7, 7 " \
               "speculative tokens)" in text, text
        assert '"parallel_drafting": true' in text and 'method "eagle3"' in text, text


def test_peagle_config_as_vllm_flattens_it_is_not_scored_as_eagle3(world, peagle, tmp_path):
    """The config vLLM builds from a speculators peagle checkpoint (transformers_utils/configs/
    speculators/algos.py update_peagle: the decoder config flattened, architectures
    ["PeagleLlamaForCausalLM"], pard_token = mask_token_id), as a converted draft directory
    holds it. Before: `eval` scored it as an EAGLE-3 draft (exit 0, meaningless numbers)."""
    raw = json.loads((peagle / "config.json").read_text())
    flat = {**raw["transformer_layer_config"], "architectures": ["PeagleLlamaForCausalLM"],
            "draft_vocab_size": DV, "norm_before_residual": False, "norm_before_fc": False,
            "eagle_aux_hidden_state_layer_ids": AUX, "pard_token": 7}
    draft = tmp_path / "flat"
    shutil.copytree(peagle, draft)
    (draft / "config.json").write_text(json.dumps(flat))
    code, text = _drafter("eval", "--model", str(draft), "--data", str(world / "data"),
                          "--target", str(world / "target"), "--steps", "2", "--json")
    assert code == 2, text
    assert "a P-EAGLE (parallel drafting) draft (PeagleLlamaForCausalLM, pard_token 7)" in text


@pytest.mark.parametrize("with_target", [True, False])
def test_narrow_draft_without_its_embedding_blames_the_missing_embedding(world, tmp_path,
                                                                         with_target):
    """A draft 16 wide over the 32-wide target (target_hidden_size 32, fc 3*32 -> 16), saved
    by speculators with its fc sized as SpecForge sizes it, then exported without
    embed_tokens.weight. Before: "target embedding
    (256, 32) does not fit the draft (256, 16) [vocab, hidden]: <target> is not the model
    this draft was trained for" (the right target), or without --target "pass --target DIR"
    (which cannot help). Now: the draft's own embedding is missing and the target's cannot
    replace it, widths named."""
    import torch
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    torch.manual_seed(0)
    config = Eagle3SpeculatorConfig(**_speculators_config(
        world, "eagle3", _layer(16, 2, 1), target_hidden_size=32))
    draft = tmp_path / "narrow"
    Eagle3DraftModel(config).eval().save_pretrained(draft)
    # speculators 0.9.0 sizes fc by hidden_size alone; SpecForge's LlamaForCausalLMEagle3
    # takes the target's states: fc = Linear(target_hidden_size * 3, hidden_size)
    # (specforge/modeling/draft/llama3_eagle.py), which vLLM and SGLang load the same way
    state = load_file(str(draft / "model.safetensors"))
    state["fc.weight"] = torch.randn(16, 3 * 32, generator=torch.Generator().manual_seed(3))
    save_file({k: v.contiguous() for k, v in state.items() if "embed_tokens" not in k},
              str(draft / "model.safetensors"))
    raw = json.loads((draft / "config.json").read_text())
    assert raw["target_hidden_size"] == 32
    target = ["--target", str(world / "target")] if with_target else []
    code, text = _drafter("eval", "--model", str(draft), "--data", str(world / "data"),
                          *target, "--steps", "2")
    assert code == 2, text
    assert ("no embed_tokens.weight in the draft, and the draft's hidden_size 16 differs from "
            "its target_hidden_size 32: it needs its own [256, 16] embedding") in text, text
    assert "not the model this draft was trained for" not in text and "pass --target" not in text
