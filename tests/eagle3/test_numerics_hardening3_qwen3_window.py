"""Qwen3 drafts: transformers' Qwen3Config decides the attention window, not the raw keys.

`Qwen3Config.__post_init__` (transformers models/qwen3/configuration_qwen3.py) sets
sliding_window = None unless use_sliding_window is true, and fills absent layer_types with
"sliding_attention" from layer max_window_layers on. speculators builds its masks from that
config object (core.py `self.sliding_window`, `layer_types`), so a config.json with
`"use_sliding_window": false, "sliding_window": 3` runs full attention there; written by hand
or edited, such configs must not get a window in spec-debug either.
"""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.loading import load_draft  # noqa: E402

H, V, NL = 32, 96, 8
AUX = [2, 4, 5]
KW = dict(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
          num_key_value_heads=2, head_dim=8, max_position_embeddings=64, rms_norm_eps=1e-6)


def _save(root, decoder_extra: dict, layers: int):
    from transformers import Qwen3Config, Qwen3ForCausalLM

    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig

    torch.manual_seed(0)
    Qwen3ForCausalLM(Qwen3Config(num_hidden_layers=NL, **KW)).save_pretrained(root / "target")
    layer_config = Qwen3Config(num_hidden_layers=layers, **KW, **decoder_extra)
    layer_config._attn_implementation = "eager"
    config = Eagle3SpeculatorConfig(
        transformer_layer_config=layer_config, draft_vocab_size=V,
        eagle_aux_hidden_state_layer_ids=AUX,
        speculators_config=SpeculatorsConfig(
            algorithm="eagle3", proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=3)],
            default_proposal_method="greedy",
            verifier=VerifierConfig.from_pretrained(str(root / "target"))))
    torch.manual_seed(1)
    model = Eagle3DraftModel(config)
    model.load_verifier_weights()
    model.eval().save_pretrained(root / "draft")
    return model


def _reload_reference(root, state):
    """speculators' view of the (edited) config.json, with eager attention."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(root / "draft")
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel(config)
    model.load_state_dict(state, strict=False)
    return model.eval()


def _logits(model, aux, ids):
    captured = []
    hook = model.lm_head.register_forward_hook(lambda _m, _i, out: captured.append(out.detach()))
    with torch.no_grad():
        model(hidden_states=aux, input_ids=ids, document_ids=torch.zeros_like(ids), ttt_steps=2)
    hook.remove()
    return captured


@pytest.mark.parametrize("edit,layers", [
    # the window keys kept, the switch off: full attention in transformers/speculators
    ({"use_sliding_window": False, "sliding_window": 3, "layer_types": ["sliding_attention"]}, 1),
    # no layer_types: derived from max_window_layers (layer 1 slides, layer 0 does not)
    ({"use_sliding_window": True, "sliding_window": 3, "max_window_layers": 1,
      "layer_types": None}, 2),
], ids=["switch-off", "layer-types-from-max_window_layers"])
def test_qwen3_window_as_transformers_reads_it(tmp_path, edit, layers):
    built = _save(tmp_path, {"use_sliding_window": True, "sliding_window": 3,
                             "layer_types": ["sliding_attention"] * layers}, layers)
    path = tmp_path / "draft" / "config.json"
    raw = json.loads(path.read_text())
    for key, value in edit.items():
        if value is None:
            raw["transformer_layer_config"].pop(key, None)
        else:
            raw["transformer_layer_config"][key] = value
    path.write_text(json.dumps(raw))
    reference = _reload_reference(tmp_path, built.state_dict())
    loaded = load_draft(tmp_path / "draft", tmp_path / "target")
    generator = torch.Generator().manual_seed(3)
    aux = torch.randn(1, 12, len(AUX) * H, generator=generator)
    ids = torch.randint(0, V, (1, 12), generator=generator)
    expected = _logits(reference, aux, ids)
    with torch.no_grad():
        got = loaded.model(aux, ids, 2)
    for a, b in zip(got, expected):
        assert (a - b).abs().max().item() < 1e-4
