"""SD703 compares the keys that shape a scaled RoPE's frequencies, not only type/theta/factor.

A draft config speculators writes for a Llama 3.1 target with the same llama3 factor but another
original_max_position_embeddings (2048 against the target's 8192), or a yarn draft whose
original_max_position_embeddings is not the target's, has other rotary frequencies than the
target (transformers' own rope init shows it below), and SD703 said nothing: it compared type,
theta and factor only."""

from __future__ import annotations

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.checks.draft_config import check_rope  # noqa: E402

KW = dict(vocab_size=256, hidden_size=32, intermediate_size=64, num_attention_heads=4,
          num_key_value_heads=2, head_dim=8, max_position_embeddings=131072)


def _llama3(original: int, low: float = 1.0) -> dict:
    return {"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0, "low_freq_factor": low,
            "high_freq_factor": 4.0, "original_max_position_embeddings": original}


def _configs(draft_rope: dict, target_rope: dict):
    """(draft config.json as speculators' Eagle3SpeculatorConfig writes it, target's LlamaConfig)."""
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig
    from transformers import LlamaConfig

    target = LlamaConfig(num_hidden_layers=4, rope_parameters=target_rope, **KW)
    draft = Eagle3SpeculatorConfig(
        transformer_layer_config=LlamaConfig(num_hidden_layers=1, rope_parameters=draft_rope, **KW),
        draft_vocab_size=128, eagle_aux_hidden_state_layer_ids=[1, 2, 3],
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig(name_or_path="target", architectures=["LlamaForCausalLM"])))
    return draft.to_dict(), target


def _inv_freq(config) -> torch.Tensor:
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    return ROPE_INIT_FUNCTIONS[config.rope_parameters["rope_type"]](config, "cpu")[0]


def test_a_llama3_draft_with_another_original_context_is_sd703():
    draft, target = _configs(_llama3(2048), _llama3(8192))
    draft_layer = _configs(_llama3(2048), _llama3(2048))[1]
    assert not torch.equal(_inv_freq(draft_layer), _inv_freq(target))  # the rotation differs
    (finding,) = check_rope(draft, target.to_dict())
    assert finding.code == "SD703"
    assert finding.evidence == ["llama3 original_max_position_embeddings: draft 2048, target 8192"]


def test_the_same_scaling_written_with_ints_is_not_a_difference():
    draft, target = _configs(_llama3(8192), _llama3(8192))
    draft["transformer_layer_config"]["rope_parameters"].update(factor=8, low_freq_factor=1)
    assert check_rope(draft, target.to_dict()) == []
    low, _ = _configs(_llama3(8192, low=2.0), _llama3(8192))
    (finding,) = check_rope(low, target.to_dict())
    assert finding.evidence == ["llama3 low_freq_factor: draft 2.0, target 1.0"]


def test_a_yarn_draft_is_compared_with_the_defaults_transformers_fills_in():
    yarn = {"rope_type": "yarn", "rope_theta": 1000000.0, "factor": 4.0,
            "original_max_position_embeddings": 32768}
    draft = {"transformer_layer_config": {"rope_parameters": {**yarn, "beta_fast": 32.0}}}
    assert check_rope(draft, {"rope_parameters": yarn}) == []
    other = {"transformer_layer_config": {"rope_parameters": {
        **yarn, "original_max_position_embeddings": 40960}}}
    (finding,) = check_rope(other, {"rope_parameters": yarn})
    assert finding.evidence == ["yarn original_max_position_embeddings: draft 40960, target 32768"]
