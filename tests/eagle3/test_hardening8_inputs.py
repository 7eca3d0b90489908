"""Drafts and data that speculators 0.9.0 saves, changed the way real ones arrive: a Phi-3
draft whose config keeps LongRoPE's first name ("su"), a hand-edited rope_theta, hidden states
stacked slot-major, SpecForge's and speculators' vocab maps kept beside the draft instead of
inside it.

speculators builds and saves every draft here; the reference logits come from speculators'
own model, rebuilt from the config as it saved it.
"""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.config import CheckpointError
from spec_debug.eagle3.loading import load_draft
from tests.eagle3.speculators_world import reference_logits, save_perturbed_draft

H, V, NL, STEPS = 32, 96, 8, 3
AUX = [2, NL // 2, NL - 3]
KW = {"vocab_size": V, "hidden_size": H, "intermediate_size": 64, "num_attention_heads": 4,
      "num_key_value_heads": 2, "head_dim": 8, "max_position_embeddings": 16, "rms_norm_eps": 1e-6}
# head_dim 8 -> 4 rotary frequencies, one factor each, as Phi-3 writes them
LONGROPE = {"rope_type": "longrope", "rope_theta": 10000.0,
            "short_factor": [1.0, 1.1, 1.3, 1.6], "long_factor": [1.0, 2.5, 7.0, 19.0],
            "original_max_position_embeddings": 8}


@pytest.fixture(scope="module")
def verifier(tmp_path_factory):
    from transformers import LlamaConfig, LlamaForCausalLM

    root = tmp_path_factory.mktemp("verifier")
    torch.manual_seed(0)
    LlamaForCausalLM(LlamaConfig(num_hidden_layers=NL, **KW)).save_pretrained(root)
    return root


def _speculators_model(out_dir, state):
    """speculators' model as it reads the saved config.json, with the saved weights."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(out_dir)
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel(config)
    model.load_state_dict(state, strict=False)  # verifier_* are not saved, nor needed
    return model.eval()


def _edit_decoder(out_dir, edit) -> None:
    path = out_dir / "config.json"
    raw = json.loads(path.read_text())
    edit(raw["transformer_layer_config"])
    path.write_text(json.dumps(raw))


@pytest.fixture(scope="module")
def longrope_draft(tmp_path_factory, verifier):
    """(directory, speculators' model): a LongRoPE draft as speculators saves it."""
    from transformers import LlamaConfig

    out = tmp_path_factory.mktemp("longrope") / "draft"
    layer_config = LlamaConfig(num_hidden_layers=1, **{**KW, "rope_parameters": dict(LONGROPE)})
    state = save_perturbed_draft(out, verifier, layer_config, aux=AUX, draft_vocab=48, vocab=V,
                                 seed_name="h8-longrope").state_dict()
    return out, _speculators_model(out, state)


def _max_diff(reference, loaded, T: int) -> float:
    generator = torch.Generator().manual_seed(T)
    aux = torch.randn(1, T, len(AUX) * H, generator=generator)
    ids = torch.randint(0, V, (1, T), generator=generator)
    expected = reference_logits(reference, aux, ids, STEPS)
    with torch.no_grad():
        got = loaded.model(aux, ids, STEPS)
    return max((a - b).abs().max().item() for a, b in zip(got, expected))


def to_phi3_su(decoder: dict) -> None:
    """The rope keys as microsoft/Phi-3-mini-128k-instruct first shipped them: rope_scaling
    `{"type": "su", short_factor, long_factor}`, original_max_position_embeddings top level."""
    rope = decoder.pop("rope_parameters")
    decoder["rope_theta"] = rope["rope_theta"]
    decoder["original_max_position_embeddings"] = rope["original_max_position_embeddings"]
    decoder["rope_scaling"] = {"type": "su", "short_factor": rope["short_factor"],
                               "long_factor": rope["long_factor"]}


def test_phi3_su_rope_runs_as_the_longrope_it_is(tmp_path, longrope_draft, verifier):
    """Before: "rope_type 'su' is not supported" (exit 2), although vLLM serves such a draft
    (it renames su to longrope). Now the logits equal speculators' on the longrope config, on
    short factors (T=5) and past original_max_position_embeddings (T=30)."""
    import shutil

    source, reference = longrope_draft
    draft = tmp_path / "draft"
    shutil.copytree(source, draft)
    _edit_decoder(draft, to_phi3_su)
    loaded = load_draft(draft, verifier)
    assert loaded.model.cfg.rope.rope_type == "longrope"
    for T in (5, 30):
        assert _max_diff(reference, loaded, T) < 1e-5


@pytest.mark.parametrize("theta", ["500000", "10k"])
def test_rope_theta_written_as_a_string_is_one_clear_error(tmp_path, longrope_draft, verifier,
                                                           theta):
    """A hand-edited `"rope_theta": "500000"`: transformers' rotary fails on it (str ** Tensor),
    so speculators and the engines cannot run the draft. Before: "500000" was read silently as
    a number and "10k" ended in "unexpected ValueError: could not convert string to float"."""
    import shutil

    draft = tmp_path / "draft"
    shutil.copytree(longrope_draft[0], draft)
    _edit_decoder(draft, lambda d: d["rope_parameters"].update(rope_theta=theta))
    expected = rf"config\.json: 'rope_theta' is '{theta}', expected a number"
    with pytest.raises(CheckpointError, match=expected):
        load_draft(draft, verifier)
