"""spec-debug's draft forward against speculators 0.9.0 on configs real drafts ship with:
dynamic-NTK and LongRoPE (Phi-3/Phi-4 style) RoPE at short and long lengths, the old
`rope_scaling` name beside transformers 5's `rope_parameters`, Qwen3 class defaults, and the
summary of what the forward does with a Qwen3 draft's window keys.

speculators builds and saves each draft; the reference is then rebuilt from the saved (and,
where a case says so, hand-edited) config.json, as speculators reads it, with the saved
weights; spec-debug loads the same directory. fp32 logits must agree within 1e-5 at every
test-time-training step.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import reference_logits, save_perturbed_draft  # noqa: E402

H, V, NL, STEPS = 32, 96, 8, 3
AUX = [2, NL // 2, NL - 3]
TOLERANCE = 1e-5
KW = dict(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
          num_key_value_heads=2, head_dim=8, max_position_embeddings=16, rms_norm_eps=1e-6)


def _config_class(arch: str):
    from transformers import LlamaConfig, Qwen3Config

    return {"llama": LlamaConfig, "qwen3": Qwen3Config}[arch]


@pytest.fixture(scope="module")
def verifiers(tmp_path_factory):
    from transformers import LlamaForCausalLM, Qwen3ForCausalLM

    out = {}
    for arch, model_class in (("llama", LlamaForCausalLM), ("qwen3", Qwen3ForCausalLM)):
        root = tmp_path_factory.mktemp(f"verifier-{arch}")
        torch.manual_seed(0)
        model_class(_config_class(arch)(num_hidden_layers=NL, **KW)).save_pretrained(root)
        out[arch] = root
    return out


def _save_draft(out_dir, verifier_dir, decoder: dict[str, Any], *, arch: str = "llama",
                layers: int = 1, draft_vocab: int = 48, name: str = "draft"):
    """speculators' Eagle3DraftModel on a decoder config of `decoder` keys, random weights with
    every norm != 1 and every bias != 0, saved to out_dir."""
    layer_config = _config_class(arch)(num_hidden_layers=layers, **{**KW, **decoder})
    return save_perturbed_draft(out_dir, verifier_dir, layer_config, aux=AUX, draft_vocab=draft_vocab, vocab=V,
                                seed_name=name).state_dict()


def _edit_decoder(out_dir, edit: Callable[[dict], None]) -> None:
    path = out_dir / "config.json"
    raw = json.loads(path.read_text())
    edit(raw["transformer_layer_config"])
    path.write_text(json.dumps(raw))


def _reference_from_disk(out_dir, state):
    """speculators' model as it reads the saved config.json, with the saved weights."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(out_dir)
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel(config)
    model.load_state_dict(state, strict=False)  # verifier_* are not saved, nor needed here
    return model.eval()


def _inputs(T: int, seed: int = 5):
    generator = torch.Generator().manual_seed(seed)
    return (torch.randn(1, T, len(AUX) * H, generator=generator),
            torch.randint(0, V, (1, T), generator=generator))


def _max_diffs(reference, loaded, T: int, steps: int = STEPS) -> list[float]:
    aux, ids = _inputs(T)
    expected = reference_logits(reference, aux, ids, steps)
    with torch.no_grad():
        got = loaded.model(aux, ids, steps)
    assert len(got) == len(expected) == steps
    return [(a - b).abs().max().item() for a, b in zip(got, expected)]


def _world(tmp_path, verifiers, decoder, edit=None, **kwargs):
    """(speculators' model, spec-debug's loaded draft) of one saved, optionally edited, draft."""
    out = tmp_path / "draft"
    state = _save_draft(out, verifiers[kwargs.get("arch", "llama")], decoder, **kwargs)
    if edit is not None:
        _edit_decoder(out, edit)
    return _reference_from_disk(out, state), load_draft(out, verifiers[kwargs.get("arch", "llama")])


# ------------------------------------------------------------------------------------------
# RoPE kinds the targets ship: dynamic NTK, LongRoPE, and both key names
# ------------------------------------------------------------------------------------------
# head_dim 8 -> 4 rotary frequencies; LongRoPE factors as Phi-3 writes them, one per frequency
LONGROPE = {"rope_type": "longrope", "rope_theta": 10000.0,
            "short_factor": [1.0, 1.1, 1.3, 1.6], "long_factor": [1.0, 2.5, 7.0, 19.0],
            "original_max_position_embeddings": 8}


@pytest.mark.parametrize("T", [5, 40], ids=["short", "past-max-positions"])
def test_dynamic_ntk_rope_matches_speculators(tmp_path, verifiers, T):
    """Dynamic NTK: plain RoPE while max(position)+1 <= max_position_embeddings (16), a base
    grown per TTT step past it (positions start at 1 and move one per step: T=5 stays inside
    for all 3 steps, T=40 is past it from step 0)."""
    decoder = {"rope_parameters": {"rope_type": "dynamic", "factor": 2.0, "rope_theta": 10000.0}}
    reference, loaded = _world(tmp_path, verifiers, decoder)
    assert max(_max_diffs(reference, loaded, T)) < TOLERANCE


@pytest.mark.parametrize("T", [4, 6, 30], ids=["short", "crosses-original-at-step-1", "long"])
def test_longrope_matches_speculators(tmp_path, verifiers, T):
    """LongRoPE: short_factor while max(position)+1 <= original_max_position_embeddings (8),
    long_factor past it; the cos/sin scale from max_position_embeddings / original (16/8).
    T=6: positions 1..6 then 2..7 then 3..8, so step 2 is the first on long factors."""
    reference, loaded = _world(tmp_path, verifiers, {"rope_parameters": dict(LONGROPE)})
    assert max(_max_diffs(reference, loaded, T)) < TOLERANCE


@pytest.mark.parametrize("inside", [None, 8], ids=["only-top-level", "both-top-level-wins"])
def test_longrope_phi3_top_level_original_max_positions(tmp_path, verifiers, inside):
    """Phi-3 writes original_max_position_embeddings beside max_position_embeddings, outside
    rope_scaling (microsoft/Phi-3-mini-128k-instruct config.json); transformers'
    standardize_rope_params lets that top-level value win over one inside the rope dict."""
    def to_phi3_layout(decoder: dict) -> None:
        rope = decoder.pop("rope_parameters")
        rope.pop("original_max_position_embeddings")
        decoder["original_max_position_embeddings"] = 12
        decoder["rope_theta"] = rope.pop("rope_theta")
        decoder["rope_scaling"] = {"type": "longrope", **{k: v for k, v in rope.items()
                                                          if k != "rope_type"}}
        if inside is not None:
            decoder["rope_scaling"]["original_max_position_embeddings"] = inside

    reference, loaded = _world(tmp_path, verifiers, {"rope_parameters": dict(LONGROPE)},
                               edit=to_phi3_layout)
    assert loaded.model.cfg.rope.params["original_max_position_embeddings"] == 12
    for T in (5, 9, 30):
        assert max(_max_diffs(reference, loaded, T)) < TOLERANCE


@pytest.mark.parametrize("rope", [
    {"rope_type": "linear", "factor": 3.0, "rope_theta": 50000.0},
    {"rope_type": "default", "rope_theta": 500000.0},
    {"rope_type": "dynamic", "factor": 4.0, "rope_theta": 10000.0},
], ids=lambda r: r["rope_type"])
@pytest.mark.parametrize("key", ["rope_parameters", "rope_scaling"])
def test_rope_under_either_key_name(tmp_path, verifiers, rope, key):
    """transformers 5 writes `rope_parameters` (rope_theta inside); configs saved before it
    have `rope_theta` top level and `rope_scaling` with `type` (or no scaling at all)."""
    def rewrite(decoder: dict) -> None:
        params = dict(decoder.pop("rope_parameters"))
        if key == "rope_scaling":
            decoder["rope_theta"] = params.pop("rope_theta")
            kind = params.pop("rope_type")
            decoder["rope_scaling"] = None if kind == "default" else {"type": kind, **params}
        else:
            decoder["rope_parameters"] = params

    reference, loaded = _world(tmp_path, verifiers, {"rope_parameters": dict(rope)}, edit=rewrite)
    assert max(_max_diffs(reference, loaded, 30)) < TOLERANCE


# ------------------------------------------------------------------------------------------
# What the summary says about attention windows is what the forward runs
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("arch,layers,keys", [
    # the window keys kept, the switch off: Qwen3Config drops the window
    ("qwen3", 1, {"use_sliding_window": False, "sliding_window": 3,
                  "layer_types": ["sliding_attention"]}),
    # no layer_types: Qwen3Config slides from layer max_window_layers (1) on
    ("qwen3", 2, {"use_sliding_window": True, "sliding_window": 3, "max_window_layers": 1}),
    # Llama keeps the keys as written (speculators reads them off the config object)
    ("llama", 2, {"sliding_window": 3, "layer_types": ["sliding_attention", "full_attention"]}),
], ids=["qwen3-switch-off", "qwen3-max_window_layers", "llama-as-written"])
def test_summary_states_the_windows_the_forward_applies(tmp_path, verifiers, arch, layers, keys):
    from spec_debug.eagle3.config import load_draft_config

    def write_keys(decoder: dict) -> None:
        decoder.pop("layer_types", None)
        decoder.update(keys)

    reference, loaded = _world(tmp_path, verifiers, {}, edit=write_keys, arch=arch,
                               layers=layers)
    summary = load_draft_config(tmp_path / "draft").summary()
    sliding = [i for i, kind in enumerate(summary["layer_types"]) if kind == "sliding_attention"]
    assert sliding == reference.sliding_window_indices or (
        reference.sliding_window is None and sliding == [])
    assert summary["sliding_window"] == (reference.sliding_window if sliding else None)
    assert len(summary["layer_types"]) == layers
    assert max(_max_diffs(reference, loaded, 12)) < TOLERANCE


# ------------------------------------------------------------------------------------------
# Keys a hand-written Qwen3 draft config lacks or carries in vain: Qwen3Config's own rules
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("decoder,drop", [
    # Qwen3Config.head_dim defaults to 128, not hidden_size // num_attention_heads (here 16)
    ({"num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 128}, "head_dim"),
    # num_key_value_heads defaults to 32, not num_attention_heads (here 64)
    ({"num_attention_heads": 64, "num_key_value_heads": 32, "head_dim": 4},
     "num_key_value_heads"),
    # max_position_embeddings defaults to 32768; LongRoPE's cos/sin scale comes from it
    ({"rope_parameters": dict(LONGROPE)}, "max_position_embeddings"),
], ids=["head_dim", "num_key_value_heads", "max_position_embeddings"])
def test_qwen3_config_without_a_key_reads_the_class_default(tmp_path, verifiers, decoder, drop):
    reference, loaded = _world(tmp_path, verifiers, decoder, arch="qwen3",
                               edit=lambda d: d.pop(drop))
    ours = {"num_key_value_heads": "num_kv_heads"}.get(drop, drop)
    assert getattr(loaded.model.cfg, ours) == getattr(reference.config.transformer_layer_config,
                                                      drop)
    assert max(_max_diffs(reference, loaded, 12)) < TOLERANCE


def test_qwen3_config_with_mlp_bias_runs_without_biases(tmp_path, verifiers):
    """Qwen3MLP builds no biases whatever mlp_bias says (a key left over from a Llama config):
    speculators saves none, so reading the key made the load fail on 'missing tensors'."""
    reference, loaded = _world(tmp_path, verifiers, {"mlp_bias": True}, arch="qwen3")
    assert max(_max_diffs(reference, loaded, 12)) < TOLERANCE


def test_rope_scaling_beside_rope_parameters_replaces_it_whole(tmp_path, verifiers):
    """A transformers 5 config (rope_parameters, theta inside) to which someone added an old
    `rope_scaling`: transformers takes rope_scaling alone, and the theta inside
    rope_parameters is dropped (10000 unless a top-level rope_theta is given)."""
    def add_old_scaling(decoder: dict) -> None:
        decoder["rope_scaling"] = {"type": "linear", "factor": 4.0}

    reference, loaded = _world(tmp_path, verifiers,
                               {"rope_parameters": {"rope_type": "default", "rope_theta": 500.0}},
                               edit=add_old_scaling)
    assert reference.rotary_emb.rope_type == loaded.model.cfg.rope.rope_type == "linear"
    assert max(_max_diffs(reference, loaded, 30)) < TOLERANCE


@pytest.mark.parametrize("rope,message", [
    # transformers only warns on the length, then fails broadcasting in the rotary's init
    ({**LONGROPE, "short_factor": [1.0, 1.1, 1.3]},
     r"short_factor has 3 entries, the rotary dim 8 needs 4"),
    ({**LONGROPE, "long_factor": None}, r"'longrope' needs long_factor"),
    ({**LONGROPE, "long_factor": "1,2,3,4"}, r"long_factor is '1,2,3,4', expected a list"),
    ({"rope_type": "dynamic", "rope_theta": 10000.0}, r"'dynamic' needs factor"),
    ({"rope_type": "proportional", "rope_theta": 10000.0}, r"'proportional' is not supported"),
    # the old key holding a bare kind: transformers would take the string as the rope dict
    ({"rope_scaling": "linear"}, r"'rope_scaling' is str 'linear', expected a JSON object"),
], ids=["longrope-short-length", "longrope-no-long", "longrope-string", "dynamic-no-factor",
        "unknown-kind", "rope_scaling-a-string"])
def test_rope_the_forward_cannot_run_is_one_clear_error(tmp_path, verifiers, rope, message):
    from spec_debug.eagle3.config import CheckpointError

    out = tmp_path / "draft"
    _save_draft(out, verifiers["llama"], {})
    edit = rope if "rope_scaling" in rope else {"rope_parameters": rope}
    _edit_decoder(out, lambda decoder: decoder.update(edit))
    with pytest.raises(CheckpointError, match=message) as raised:
        load_draft(out, verifiers["llama"])
    assert "config.json" in str(raised.value)


def test_specforge_layout_with_a_qwen3_model_type_is_a_llama_draft(tmp_path, verifiers):
    """A SpecForge config for a Qwen3 target may keep "model_type": "qwen3" beside
    `LlamaForCausalLMEagle3`; SpecForge trains, the engines serve and speculators' converter
    rebuilds a Llama decoder from it (no q_norm/k_norm). Was: 'missing tensors' q_norm."""
    from safetensors.torch import load_file, save_file

    out = tmp_path / "draft"
    state = _save_draft(out, verifiers["llama"], {})
    reference = _reference_from_disk(out, state)
    eagle = tmp_path / "eagle"
    eagle.mkdir()
    tensors = load_file(out / "model.safetensors")
    save_file({name.replace("layers.0.", "midlayer."): t for name, t in tensors.items()},
              str(eagle / "model.safetensors"))
    decoder = json.loads((out / "config.json").read_text())["transformer_layer_config"]
    flat = {**decoder, "model_type": "qwen3", "architectures": ["LlamaForCausalLMEagle3"],
            "draft_vocab_size": 48, "use_sliding_window": False, "max_window_layers": 36,
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": AUX}}
    (eagle / "config.json").write_text(json.dumps(flat))
    loaded = load_draft(eagle, verifiers["llama"])
    assert loaded.model.cfg.model_type == "llama"
    assert max(_max_diffs(reference, loaded, 12)) < TOLERANCE


@pytest.fixture
def partial_neox():
    """speculators' own partial-rotary patch (models/eagle3/rotary_partial.py), which its
    train/cli.py installs; without it HF's apply_rotary_pos_emb cannot run a partial rotary."""
    from speculators.models.eagle3 import rotary_partial

    rotary_partial.install_partial_neox_rotary()
    yield
    rotary_partial.uninstall_partial_neox_rotary()


def test_top_level_partial_rotary_factor_with_longrope(tmp_path, verifiers, partial_neox):
    """Phi-4-mini writes partial_rotary_factor (0.75) top level beside a longrope
    rope_scaling; transformers moves it into the rope dict, so half the head rotates here,
    on 2 factors per list."""
    rope = {**LONGROPE, "short_factor": [1.0, 1.2], "long_factor": [1.0, 3.0],
            "partial_rotary_factor": 0.5}

    def move_partial_out(decoder: dict) -> None:
        decoder["partial_rotary_factor"] = decoder["rope_parameters"].pop("partial_rotary_factor")

    reference, loaded = _world(tmp_path, verifiers, {"rope_parameters": rope},
                               edit=move_partial_out)
    assert loaded.model.cfg.rope.params["partial_rotary_factor"] == 0.5
    for T in (5, 30):
        assert max(_max_diffs(reference, loaded, T)) < TOLERANCE


# ------------------------------------------------------------------------------------------
# Long samples: attention in query blocks, same numbers
# ------------------------------------------------------------------------------------------
@pytest.mark.parametrize("decoder", [
    {},
    {"sliding_window": 5, "layer_types": ["sliding_attention", "full_attention"]},
], ids=["full", "sliding"])
def test_attention_in_query_blocks_matches_speculators(tmp_path, verifiers, decoder, monkeypatch):
    """Blocks of 7 query rows over a 40-row sample (and its TTT diagonals), each block seeing
    only the keys from the first one its rows may attend to."""
    from spec_debug.eagle3 import model as draft_model

    reference, loaded = _world(tmp_path, verifiers, decoder, layers=2)
    heads = loaded.model.cfg.num_heads
    monkeypatch.setattr(draft_model, "SCORES_BUDGET", heads * 40 * 7)
    assert len(draft_model.query_blocks(heads, 40)) == 6
    assert max(_max_diffs(reference, loaded, 40)) < TOLERANCE


MEMORY_SCRIPT = """
import resource, torch
from dataclasses import replace
from spec_debug.eagle3.model import Eagle3Draft
from spec_debug.eagle3.synthetic import tiny_config
T = 3072
cfg = replace(tiny_config(vocab=64, hidden=64, layers=1, heads=16, kv_heads=4), head_dim=4)
model = Eagle3Draft(cfg).eval()
aux, ids = torch.randn(1, T, 3 * 64), torch.randint(0, 64, (1, T))
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
with torch.no_grad():
    model(aux, ids, 1)
print((resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) // 1024)
"""


def test_long_sample_does_not_hold_full_attention_matrices():
    """A 3072-token sample, 16 heads: one [16, T, T] fp32 score matrix is 576 MiB and the
    unblocked forward held several at once (1.7 GiB peak; a 32-head draft on a 16k-token
    sample needs 32 GiB per matrix and ran out of memory). Blocked: about 350 MiB."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True,
                          timeout=120, cwd=os.path.dirname(os.path.dirname(os.path.dirname(
                              os.path.abspath(__file__)))))
    assert done.returncode == 0, done.stderr
    assert int(done.stdout.split()[-1]) < 800
