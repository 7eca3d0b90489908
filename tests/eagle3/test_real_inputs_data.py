"""Hidden-state dumps and target configs exactly as real pipelines write them.

speculators 0.9.0 saves a tiny Eagle3 draft with its config-class defaults (no norm before fc:
what SpecForge-trained and pre-PR #692 speculators drafts look like), a real HF Llama verifier
gives the hidden states, and each test writes them the way one pipeline does, with that
pipeline's own code where it is installed (hs_connectors, speculators' data-gen dependency).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import save_file  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import AUX, DV, H, NL, V, save_verifier_and_draft, vllm_style_states  # noqa: E402

SAMPLES = 3
runner = CliRunner()


def _trained_final_norm(verifier) -> None:
    with torch.no_grad():  # a trained final norm, not all ones (with ones, norm twice == once)
        verifier.model.norm.weight.normal_(1.0, 0.5)


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("real_inputs")
    verifier = save_verifier_and_draft(root, before_save=_trained_final_norm)
    # the states themselves, as vLLM's extract_hidden_states hands them to the connector:
    # [T, aux + 1, H] bf16, the last slot the final layer (hs_connectors transfer.py)
    states = {i: vllm_style_states(verifier, torch.randint(0, V, (16 + i,)))
              for i in range(SAMPLES)}
    (root / "bf16").mkdir()
    for i, (ids, hidden) in states.items():
        save_file({"token_ids": ids, "hidden_states": hidden},
                  str(root / "bf16" / f"hs_{i}.safetensors"))
    torch.save(states, root / "states.pt")
    # SpecForge's offline files of the same sequences (scripts/prepare_hidden_states.py with
    # the SGLang capture): the aux states concatenated with a batch dim, the final state after
    # the target's norm, ids and loss mask as its preprocessing makes them (int64)
    (root / "specforge" / "rows_0-2000").mkdir(parents=True)
    for i, (ids, hidden) in states.items():
        final = hidden[:, -1].float()
        normed = verifier.model.norm(final[None]).to(torch.bfloat16)  # [1, T, H]
        torch.save({"input_ids": ids, "loss_mask": torch.ones_like(ids),
                    "aux_hidden_state": hidden[:, :-1].reshape(1, ids.shape[0], -1).clone(),
                    "hidden_state": normed.detach().clone()},
                   root / "specforge" / "rows_0-2000" / f"data_{i}.ckpt")
    return root


def _eval(root: Path, data: Path, *extra: str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(root / "draft"), "--data",
                                         str(data), "--target", str(root / "target"),
                                         "--steps", "2", "--json", *extra])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_fp8_dump_scores_like_the_bf16_dump(world, tmp_path):
    """`--hidden-states-backend fp8` (speculators' FP8HiddenStatesConnector) stores fp8 states
    over a per-token scale; read raw, every state was off by its scale and the draft scored
    0 on every step. Dequantized as FP8Transfer does, it scores what the bf16 dump scores."""
    from hs_connectors.fp8_utils import SCALES_KEY, quantize_tensor_to_fp8
    from hs_connectors.transfer import FP8Transfer

    from spec_debug.eagle3.data import read_sample

    for i, (ids, hidden) in torch.load(world / "states.pt").items():
        fp8, scales = quantize_tensor_to_fp8(hidden)  # the connector's _write_tensors
        save_file({"token_ids": ids, "hidden_states": fp8, SCALES_KEY: scales},
                  str(tmp_path / f"hs_{i}.safetensors"))
    # the states spec-debug reads are those speculators' own reader trains on
    restored = FP8Transfer(tmp_path).get_cached(1)["hidden_states"]
    sample = read_sample(tmp_path / "hs_1.safetensors")
    assert torch.equal(sample.slots, restored) and torch.equal(sample.final, restored[:, -1])

    reference, fp8 = _eval(world, world / "bf16"), _eval(world, tmp_path)
    assert reference["counts"]["full_correct"][0] > 0
    for key in ("full_correct", "full_total", "target_correct"):
        assert fp8["counts"][key] == pytest.approx(reference["counts"][key], abs=1), key
    layout = runner.invoke(drafter_app, ["layout", "--model", str(world / "draft"), "--data",
                                         str(tmp_path), "--target", str(world / "target"),
                                         "--json"])
    assert layout.exit_code == 0 and json.loads(layout.output)["samples"] == SAMPLES


# ------------------------------------------------------------------------------------------
# Drafts in SpecForge's layout: a flat HF config naming `LlamaForCausalLMEagle3`, weights
# under `midlayer.*` (sgl-project/SpecForge configs/*-eagle3.json, modeling/draft/llama3_eagle.py)
# ------------------------------------------------------------------------------------------
def _specforge_draft(world: Path, out: Path, **config: object) -> Path:
    """The speculators draft's weights, saved the way a SpecForge run leaves them."""
    from safetensors.torch import load_file

    out.mkdir()
    state = load_file(world / "draft" / "model.safetensors")
    save_file({name.replace("layers.0.", "midlayer."): tensor for name, tensor in state.items()},
              str(out / "model.safetensors"))
    speculators = json.loads((world / "draft" / "config.json").read_text())
    flat = {**speculators["transformer_layer_config"], "architectures": ["LlamaForCausalLMEagle3"],
            "draft_vocab_size": DV, "eagle_config": {"eagle_aux_hidden_state_layer_ids": AUX}}
    flat.pop("rope_parameters")
    flat.update(rope_theta=10000.0, **config)
    (out / "config.json").write_text(json.dumps(flat))
    return out


@pytest.mark.parametrize("name, config", [
    # configs/qwq-32B-eagle3.json and phi4-eagle3.json keep the target's model_type
    ("qwq_model_type", {"model_type": "qwen2", "sliding_window": 32768,
                        "use_sliding_window": False}),
    ("phi4_model_type", {"model_type": "phi3"}),
    # configs/qwen2-5-vl-7b-eagle3.json: mrope with sections summing to head_dim / 2
    ("qwen25_vl_mrope", {"rope_scaling": {"type": "mrope", "mrope_section": [2, 1, 1]}}),
])
def test_specforge_drafts_run_as_the_llama_draft_they_are(world, tmp_path, name, config):
    """SpecForge ships these configs for QwQ, Phi-4 and Qwen2.5-VL; the drafter refused them
    ("model_type 'qwen2' is not supported", "rope_type 'mrope' is not supported") although
    the draft is SpecForge's one Llama class and mrope on text is plain RoPE."""
    draft = _specforge_draft(world, tmp_path / name, **config)
    reference = _eval(world, world / "bf16")
    result = runner.invoke(drafter_app, ["eval", "--model", str(draft), "--data",
                                         str(world / "bf16"), "--target", str(world / "target"),
                                         "--steps", "2", "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["draft"]["format"] == "eagle" and out["draft"]["model_type"] == "llama"
    assert out["counts"] == reference["counts"]


# ------------------------------------------------------------------------------------------
# Targets whose final RMSNorm is zero-centred (weight + 1)
# ------------------------------------------------------------------------------------------
def test_gemma3_target_argmax_is_the_verifiers_own(world, tmp_path):
    """A gemma-3 target (SpecForge configs/gemma3-1b-eagle3.json; Qwen3-Next and Qwen3.5 norm
    the same way) stores its final norm weight around 0 and scales by (1 + w). Read as
    LlamaRMSNorm, the reference targets were lm_head(~0): a wrong argmax on every row, so
    every accuracy the drafter printed for these targets was against the wrong tokens."""
    from transformers import Gemma3ForCausalLM, Gemma3TextConfig

    from spec_debug.eagle3.loading import load_draft

    torch.manual_seed(1)
    verifier = Gemma3ForCausalLM(Gemma3TextConfig(
        vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
        num_key_value_heads=2, head_dim=8, max_position_embeddings=128,
        num_hidden_layers=NL)).eval()
    with torch.no_grad():  # a trained norm, not the zero init
        verifier.model.norm.weight.normal_(0.0, 0.5)
    verifier.save_pretrained(tmp_path / "gemma")
    ids, hidden = vllm_style_states(verifier, torch.randint(0, V, (24,)))
    with torch.no_grad():
        expected = verifier(ids[None]).logits[0].argmax(-1)
    loaded = load_draft(world / "draft", tmp_path / "gemma")
    got = loaded.target_head.logits(hidden[:, -1].float()).argmax(-1)
    assert (got == expected).float().mean() > 0.95  # bf16 states, fp32 head: rare near-ties
    assert loaded.target_head.zero_centered

    llama = load_draft(world / "draft", world / "target")  # the Llama target is unchanged
    assert not llama.target_head.zero_centered


def test_specforge_dump_targets_are_the_verifiers(world):
    """SpecForge stores `hidden_state` after the final norm and trains against lm_head of it.
    The drafter normed it again, so about half its reference tokens were not the target's
    argmax. Both dumps must give the verifier's own next-token argmax."""
    from transformers import LlamaForCausalLM

    from spec_debug.eagle3.data import iter_samples
    from spec_debug.eagle3.loading import load_draft

    verifier = LlamaForCausalLM.from_pretrained(world / "target").eval()
    head = load_draft(world / "draft", world / "target").target_head
    for dump in ("specforge", "bf16"):
        for sample in iter_samples(world / dump):
            with torch.no_grad():
                expected = verifier(sample.token_ids[None]).logits[0].argmax(-1)
            got = head.logits(sample.final.float(), normed=sample.final_normed).argmax(-1)
            assert (got == expected).float().mean() > 0.9, (dump, sample.name)
    reference, specforge = _eval(world, world / "bf16"), _eval(world, world / "specforge")
    assert specforge["reference"] == "target_argmax" and specforge["samples"] == SAMPLES
    assert specforge["counts"]["full_total"] == reference["counts"]["full_total"]


def test_gemma3_multimodal_config_saved_as_a_diff(tmp_path):
    """google/gemma-3-4b-it's config.json, as transformers 4.50 saved it: text_config is a diff
    against Gemma3TextConfig's defaults (no vocab_size, rms_norm_eps, tie_word_embeddings).
    The drafter said "config.json: no 'vocab_size'" for a target transformers loads fine."""
    from spec_debug.eagle3.checkpoint import open_target

    (tmp_path / "config.json").write_text(json.dumps({
        "architectures": ["Gemma3ForConditionalGeneration"], "boi_token_index": 255999,
        "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144,
        "initializer_range": 0.02, "mm_tokens_per_image": 256, "model_type": "gemma3",
        "text_config": {"hidden_size": 2560, "intermediate_size": 10240,
                        "model_type": "gemma3_text", "num_hidden_layers": 34,
                        "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                        "sliding_window": 1024},
        "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0",
        "vision_config": {"hidden_size": 1152, "image_size": 896, "model_type": "siglip_vision_model"}}))
    from transformers import AutoConfig

    truth = AutoConfig.from_pretrained(tmp_path).text_config  # what transformers reads
    config = open_target(tmp_path).config
    assert (config.vocab_size, config.num_layers, config.hidden_size, config.rms_norm_eps) == (
        truth.vocab_size, truth.num_hidden_layers, truth.hidden_size, truth.rms_norm_eps)
    assert config.tie_word_embeddings and config.zero_centered_norm


def test_specforge_eagle31_norm_output_is_the_standard_path(world, tmp_path):
    """SpecForge's Eagle3.1 config (configs/qwen3-30B-A3B-eagle3.1.json: fc_norm and
    norm_output true) trains carrying the PRE-norm state; its norm_output only says the logits
    go through the final norm. Read with speculators' meaning (carry the normed state), every
    step after the first ran a forward the draft was never trained with."""
    from safetensors.torch import load_file

    from spec_debug.eagle3.loading import load_draft

    torch.manual_seed(2)
    fc_norm = {f"fc_norm.{i}.weight": torch.rand(H) + 0.5 for i in range(3)}
    speculators = tmp_path / "speculators"
    speculators.mkdir()
    state = {**load_file(world / "draft" / "model.safetensors"), **fc_norm}
    save_file(state, str(speculators / "model.safetensors"))
    config = json.loads((world / "draft" / "config.json").read_text())
    config.update(fc_norm=True, norm_output=False)
    (speculators / "config.json").write_text(json.dumps(config))
    # the same tensors in SpecForge's layout and config
    specforge = tmp_path / "specforge"
    specforge.mkdir()
    save_file({n.replace("layers.0.", "midlayer."): t for n, t in state.items()},
              str(specforge / "model.safetensors"))
    flat = {**config["transformer_layer_config"], "architectures": ["LlamaForCausalLMEagle3"],
            "draft_vocab_size": DV, "fc_norm": True, "norm_output": True, "rope_theta": 10000.0,
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": AUX}}
    flat.pop("rope_parameters")
    (specforge / "config.json").write_text(json.dumps(flat))

    ids, hidden = torch.load(world / "states.pt")[0]
    aux = hidden[:-1, :-1].reshape(1, -1, 3 * H).float()
    steps = []
    for draft in (speculators, specforge):
        model = load_draft(draft, world / "target").model
        with torch.no_grad():
            steps.append([logits.clone() for logits in model.ttt_steps(
                aux, ids[None, 1:], 3, flags=model.reference_flags)])
    for k, (want, got) in enumerate(zip(*steps)):
        assert torch.allclose(want, got, atol=1e-5), f"step {k}"


def test_hand_made_dump_with_the_post_norm_final_state(world, tmp_path):
    """A dump written from HF `output_hidden_states` (the INCIDENT's standalone script did
    this): transformers 5 ends the tuple with the state after model.norm. Normed again, the
    reference was not the target's argmax; now it is detected, used as is, and counted."""
    from transformers import LlamaForCausalLM

    from spec_debug.eagle3.data import read_sample
    from spec_debug.eagle3.loading import load_draft

    verifier = LlamaForCausalLM.from_pretrained(world / "target").eval()
    head = load_draft(world / "draft", world / "target").target_head
    for i, (ids, _) in torch.load(world / "states.pt").items():
        with torch.no_grad():
            out = verifier(ids[None], output_hidden_states=True)
        hidden = torch.stack([out.hidden_states[j][0] for j in AUX + [NL]], dim=1)
        save_file({"token_ids": ids, "hidden_states": hidden.to(torch.bfloat16).contiguous()},
                  str(tmp_path / f"hs_{i}.safetensors"))
        final = read_sample(tmp_path / f"hs_{i}.safetensors").final.float()
        assert head.already_normed(final)
        got = head.logits(final, normed=True).argmax(-1)
        assert (got == out.logits[0].argmax(-1)).float().mean() > 0.9
    assert _eval(world, tmp_path)["final_state_post_norm"] == SAMPLES
    assert _eval(world, world / "bf16")["final_state_post_norm"] == 0  # vLLM's: pre-norm


def test_raw_vllm_connector_directory(world, tmp_path):
    """`vllm serve` with the extract_hidden_states method writes `{req_id}.safetensors`
    (token_ids, hidden_states) into shared_storage_path; only speculators' data generation
    renames them hs_{i}. The drafter said "no hs_*.safetensors or data_*.ckpt files"."""
    for i, (ids, hidden) in torch.load(world / "states.pt").items():
        save_file({"hidden_states": hidden, "token_ids": ids},
                  str(tmp_path / f"chatcmpl-9f3b2c{i}e71a4d-0.safetensors"))
    assert _eval(world, tmp_path)["counts"] == _eval(world, world / "bf16")["counts"]
