"""Drafter checkpoints as broken converters and exporters write them, silently: every tensor
is there with the right shape, the draft loads, and acceptance collapses.

- speculators' Eagle3Converter loaded the EAGLE weights with `load_state_dict(strict=False)`
  and saved anyway; when its `midlayer.` -> `layers.0.` remap was lost, layer 0 was written
  freshly initialised (vllm-project/speculators#358, #1114).
- TorchSpec's exporter skipped `embed_tokens` and saved the fresh model's random embedding
  (lightseekorg/TorchSpec#38); vLLM keeps a draft embedding that differs from the target's
  (vllm-project/vllm#28549), SGLang replaces it.

The drafts are speculators 0.9.0's own Eagle3DraftModel, trained-looking (every norm != 1),
saved with its save_pretrained; each test runs the `spec-debug drafter eval` a user types.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file
from typer.testing import CliRunner

from spec_debug.eagle3.commands import drafter_app
from tests.eagle3.speculators_world import AUX, DV, V, save_informative_world, save_perturbed_draft

runner = CliRunner()

INITIAL_NORMS = "RMSNorm weights at their initial value"
FOREIGN_EMBED = "the draft's embed_tokens is not the target's"


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    """target/ and data/ (vLLM-style dumps) from the shared world, and trained/: a draft
    over that verifier whose norms and biases are all away from their initial values."""
    from transformers import LlamaConfig

    root = save_informative_world(tmp_path_factory.mktemp("hardening18_ckpt"), seed=18)
    layer = LlamaConfig(num_hidden_layers=1, vocab_size=V, hidden_size=32, intermediate_size=64,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                        max_position_embeddings=128)
    save_perturbed_draft(root / "trained", root / "target", layer, aux=AUX, draft_vocab=DV,
                         vocab=V, seed_name="hardening18")
    return root


def _eval(draft: Path, world: Path, *extra: str) -> dict:
    result = runner.invoke(drafter_app, ["eval", "--model", str(draft), "--data",
                                         str(world / "data"), "--target", str(world / "target"),
                                         "--steps", "2", "--json", *extra])
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _rewrite(source: Path, tmp_path: Path, change) -> Path:
    """A copy of draft `source` whose model.safetensors went through `change(state)`."""
    draft = tmp_path / "draft"
    shutil.copytree(source, draft)
    state = change(load_file(str(draft / "model.safetensors")))
    save_file({k: v.contiguous() for k, v in state.items()}, str(draft / "model.safetensors"))
    return draft


def _converted_without_remap(world: Path, out: Path) -> None:
    """What speculators' converter wrote when the remap was lost (#358): a fresh
    Eagle3DraftModel, load_state_dict(EAGLE-named weights, strict=False), save_pretrained.
    Everything but `midlayer.*` matches; layer 0 stays as initialised."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    config = Eagle3SpeculatorConfig.from_pretrained(str(world / "trained"))
    config.transformer_layer_config._attn_implementation = "eager"
    eagle_named = {name.replace("layers.0.", "midlayer."): tensor for name, tensor
                   in load_file(str(world / "trained" / "model.safetensors")).items()}
    torch.manual_seed(1114)
    fresh = Eagle3DraftModel(config)
    missing, unexpected = fresh.load_state_dict(eagle_named, strict=False)
    assert any(n.startswith("layers.0.") for n in missing) and unexpected  # the silent miss
    fresh.eval().save_pretrained(out)


def test_layer_saved_freshly_initialised_by_a_converter_is_named(world, tmp_path):
    """Before: AL ~1.0 and no word on why (every tensor present, right shapes, finite). Now
    a note names the norms still at 1.0 beside trained ones, and the cause."""
    healthy = _eval(world / "trained", world)
    assert not any(INITIAL_NORMS in n for n in healthy["notes"])

    _converted_without_remap(world, tmp_path / "converted")
    broken = _eval(tmp_path / "converted", world)
    note = next(n for n in broken["notes"] if INITIAL_NORMS in n)
    assert "layers.0.hidden_norm.weight" in note and "layers.0.input_layernorm.weight" in note
    assert "norm.weight is trained" in note and "speculators#1114" in note


def test_untrained_draft_saved_whole_gets_no_partial_load_note(world):
    """A draft saved before training (every norm 1.0, the shared world's) is not a partial
    load: no note, as before."""
    out = _eval(world / "draft", world)
    assert not any(INITIAL_NORMS in n for n in out["notes"])


def test_norms_early_in_training_saved_in_bfloat16_get_no_partial_load_note(world, tmp_path):
    """bfloat16 rounds a norm within 2**-8 of 1.0 to exactly 1.0: early in training some norms
    read as untouched beside others that moved a little. Not a lost load: no note."""
    def early(state):
        generator = torch.Generator().manual_seed(8)
        for name in state:
            if name.endswith("norm.weight"):
                moved = 0.002 if name.startswith("layers.") else 0.03
                state[name] = 1 + moved * torch.rand(state[name].shape, generator=generator)
        return {k: v.bfloat16() if v.is_floating_point() else v for k, v in state.items()}

    draft = _rewrite(world / "trained", tmp_path, early)
    assert not any(INITIAL_NORMS in n for n in _eval(draft, world)["notes"])


def test_random_embedding_saved_by_an_exporter_is_named(world, tmp_path):
    """TorchSpec#38: the export saved the fresh model's embed_tokens (normal, std 0.02).
    Before: scored with it, AL near 1, no note. Now the note says it is not the target's
    and that SGLang would use the target's; --semantics sglang measures that."""
    def fresh_embedding(state):
        generator = torch.Generator().manual_seed(38)
        state["embed_tokens.weight"] = torch.randn(state["embed_tokens.weight"].shape,
                                                   generator=generator) * 0.02
        return state

    draft = _rewrite(world / "draft", tmp_path, fresh_embedding)  # the data fits this draft
    out = _eval(draft, world)
    note = next(n for n in out["notes"] if FOREIGN_EMBED in n)
    assert "unrelated" in note and "TorchSpec#38" in note and "--semantics sglang" in note
    sglang = _eval(draft, world, "--semantics", "sglang")
    assert sglang["embed_source"] == "target"
    assert not any(FOREIGN_EMBED in n for n in sglang["notes"])
    assert sglang["expected_accept_length"] > out["expected_accept_length"]


def test_embedding_equal_to_the_target_up_to_a_cast_is_not_flagged(world, tmp_path):
    """speculators copies the verifier's embedding (load_verifier_weights); a draft cast to
    bfloat16 for serving still holds it: no note."""
    assert not any(FOREIGN_EMBED in n for n in _eval(world / "trained", world)["notes"])
    draft = _rewrite(world / "trained", tmp_path, lambda state: {
        k: v.bfloat16() if v.is_floating_point() else v for k, v in state.items()})
    assert not any(FOREIGN_EMBED in n for n in _eval(draft, world)["notes"])


def test_embedding_trained_on_purpose_is_not_flagged(world, tmp_path):
    """speculators' embed_requires_grad: true trains the embedding; it differs by design."""
    def nudged(state):
        state["embed_tokens.weight"] = state["embed_tokens.weight"] * 1.5
        return state

    draft = _rewrite(world / "trained", tmp_path, nudged)
    assert any(FOREIGN_EMBED in n and "close to it" in n for n in _eval(draft, world)["notes"])
    config = json.loads((draft / "config.json").read_text())
    config["embed_requires_grad"] = True
    (draft / "config.json").write_text(json.dumps(config))
    assert not any(FOREIGN_EMBED in n for n in _eval(draft, world)["notes"])


# EAGLE-1/EAGLE-2 drafts, with the names and shapes of SafeAILab/EAGLE eagle/model/cnets1.py:
# fc = Linear(2H, H, bias), layer 0 without input_layernorm, q/k/v over H, no norm/lm_head.
def _eagle1_state(hidden: int = 32, vocab: int = V, inter: int = 64) -> dict:
    generator = torch.Generator().manual_seed(2)

    def weight(*shape):
        return (torch.randn(*shape, generator=generator) * 0.02).half()

    return {"embed_tokens.weight": weight(vocab, hidden), "fc.weight": weight(hidden, 2 * hidden),
            "fc.bias": weight(hidden),
            "layers.0.self_attn.q_proj.weight": weight(hidden, hidden),
            "layers.0.self_attn.k_proj.weight": weight(16, hidden),
            "layers.0.self_attn.v_proj.weight": weight(16, hidden),
            "layers.0.self_attn.o_proj.weight": weight(hidden, hidden),
            "layers.0.mlp.gate_proj.weight": weight(inter, hidden),
            "layers.0.mlp.up_proj.weight": weight(inter, hidden),
            "layers.0.mlp.down_proj.weight": weight(hidden, inter),
            "layers.0.post_attention_layernorm.weight": 1 + weight(hidden)}


# yuhuili/EAGLE-LLaMA3.1-Instruct-8B's config.json (quoted in vllm-project/speculators PR #31),
# at this world's sizes
EAGLE1_CONFIG = {"architectures": ["LlamaForCausalLM"], "bias": True, "bos_token_id": 1,
                 "eos_token_id": 2, "hidden_act": "silu", "hidden_size": 32,
                 "initializer_range": 0.02, "intermediate_size": 64,
                 "max_position_embeddings": 2048, "model_type": "llama",
                 "num_attention_heads": 4, "num_hidden_layers": 1, "num_key_value_heads": 2,
                 "pad_token_id": 0, "rms_norm_eps": 1e-05, "rope_theta": 500000.0,
                 "tie_word_embeddings": False, "torch_dtype": "float16",
                 "transformers_version": "4.28.1", "use_cache": True, "vocab_size": V}


def _drafter_error(*args: str) -> str:
    result = runner.invoke(drafter_app, list(args))
    assert "Traceback" not in result.output, result.output
    assert result.exit_code == 2, result.output
    return " ".join(result.output.split())


@pytest.mark.parametrize("layout", ["eagle", "vllm-converted"])
def test_eagle1_draft_passed_as_eagle3_is_named(world, tmp_path, layout):
    """Before: `eval` said "fc.weight takes 64 inputs = 2 aux states of 32, but
    eagle_aux_hidden_state_layer_ids is absent (3 assumed)" (a fix that cannot work) and
    `vocab` passed; vLLM's converted layout ({"model_type": "eagle", "model": {...}},
    vllm-project/vllm#11126) failed on "draft decoder model_type 'eagle' is not supported". Now
    both name an EAGLE-1/2 draft and how to serve it."""
    draft = tmp_path / "eagle1"
    draft.mkdir()
    state, config = _eagle1_state(), dict(EAGLE1_CONFIG)
    if layout == "vllm-converted":
        config = {"model_type": "eagle", "model": {**config, "eagle_fc_bias": True}}
        state = {name if name.startswith("fc.") else "model." + name: t for name, t in state.items()}
    (draft / "config.json").write_text(json.dumps(config))
    torch.save(state, draft / "pytorch_model.bin")  # as EAGLE ships them
    for command in (["vocab"], ["eval", "--data", str(world / "data")]):
        text = _drafter_error(*command, "--model", str(draft), "--target", str(world / "target"))
        assert "an EAGLE-1/EAGLE-2 draft, not an EAGLE-3 one" in text, text
        assert "aux_hidden_state_layer_ids" not in text and 'method "eagle"' in text


def test_eagle3_draft_over_two_aux_layers_still_loads(world, tmp_path):
    """An EAGLE-3 fc over two aux states is [H, 2H] too; its layer 0 attends over 2H."""
    from transformers import LlamaConfig

    layer = LlamaConfig(num_hidden_layers=1, vocab_size=V, hidden_size=32, intermediate_size=64,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                        max_position_embeddings=128)
    save_perturbed_draft(tmp_path / "two_aux", world / "target", layer, aux=[2, 5],
                         draft_vocab=DV, vocab=V, seed_name="two-aux")
    out = _eval(tmp_path / "two_aux", world)
    assert len(out["layout"]) == 2 and out["samples"] == 3 and out["tokens"] > 0


def test_draft_head_wider_than_the_target_vocabulary(world, tmp_path):
    """A full-vocabulary head of a bigger vocabulary (Qwen2.5-7B's 152064 rows) whose config
    was edited to the target's vocab_size (151936) to fit its embedding: 300 rows over 256
    tokens here. Before: `vocab` passed and `eval` died with "unexpected IndexError: index 256
    is out of bounds". Now `vocab` reports SD303 and `eval` names the two sizes."""
    def wider_head(state):
        generator = torch.Generator().manual_seed(300)
        head = state["lm_head.weight"]
        extra = torch.randn(300 - head.shape[0], head.shape[1], generator=generator) * 0.02
        state["lm_head.weight"] = torch.cat([head, extra])
        del state["d2t"], state["t2d"]  # a full-vocabulary head has no maps
        return state

    draft = _rewrite(world / "trained", tmp_path, wider_head)
    config = json.loads((draft / "config.json").read_text())
    config["draft_vocab_size"] = 300
    (draft / "config.json").write_text(json.dumps(config))

    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                         str(world / "target"), "--json"])
    assert result.exit_code == 1, result.output
    issues = [i for c in json.loads(result.output)["checks"] for i in c["issues"]]
    assert [(i["code"], i["facts"]["target_vocab_size"]) for i in issues
            if i["kind"] == "lm_head_rows"] == [("SD303", V)]
    text = _drafter_error("eval", "--model", str(draft), "--target", str(world / "target"),
                          "--data", str(world / "data"))
    assert f"draft_vocab_size 300 (lm_head rows) is larger than the target vocabulary, " \
           f"vocab_size {V}" in text and "IndexError" not in text


@pytest.fixture(scope="module")
def pre_fc_norm_draft(world, tmp_path_factory) -> Path:
    """speculators' draft trained with norm_before_fc (Eagle 3.1 / gpt-oss recipe, so it
    carries input_norm.weight), every norm away from 1."""
    from transformers import LlamaConfig

    out = tmp_path_factory.mktemp("hardening18_nbfc") / "draft"
    layer = LlamaConfig(num_hidden_layers=1, vocab_size=V, hidden_size=32, intermediate_size=64,
                        num_attention_heads=4, num_key_value_heads=2, head_dim=8,
                        max_position_embeddings=128)
    save_perturbed_draft(out, world / "target", layer, aux=AUX, draft_vocab=DV, vocab=V,
                         seed_name="nbfc", flags={"norm_before_fc": True})
    return out


def test_norm_before_fc_nested_under_eagle_config_is_applied(world, pre_fc_norm_draft, tmp_path):
    """The same weights in the EAGLE/ModelOpt layout: a flat llama config whose eagle_config
    holds the aux ids and norm_before_fc (where SGLang since #32334 and TensorRT-LLM's
    Eagle3DraftModel read it), tensors under midlayer.*. Before: run
    without the trained input_norm (norm_flags.norm_before_fc false, other scores), silently.
    Now it scores exactly as the speculators layout of the same draft."""
    config = json.loads((pre_fc_norm_draft / "config.json").read_text())
    flat = {**config["transformer_layer_config"], "architectures": ["LlamaForCausalLMEagle3"],
            "draft_vocab_size": DV,
            "eagle_config": {"eagle_aux_hidden_state_layer_ids": AUX, "norm_before_fc": True}}
    eagle = tmp_path / "eagle"
    eagle.mkdir()
    (eagle / "config.json").write_text(json.dumps(flat))
    state = load_file(str(pre_fc_norm_draft / "model.safetensors"))
    assert "input_norm.weight" in state
    save_file({k.replace("layers.0.", "midlayer."): v for k, v in state.items()},
              str(eagle / "model.safetensors"))

    speculators_layout = _eval(pre_fc_norm_draft, world)
    eagle_layout = _eval(eagle, world)
    assert eagle_layout["norm_flags"]["norm_before_fc"] is True
    assert eagle_layout["counts"] == speculators_layout["counts"]
    assert eagle_layout["full_accuracy"] == speculators_layout["full_accuracy"]


def test_pre_fc_norm_weight_the_config_does_not_switch_on_is_noted(world, pre_fc_norm_draft,
                                                                    tmp_path):
    """A config that lost the flag (hand-edited, or written by a converter that drops it)
    over weights trained with it. Before: input_norm.weight was loaded, not applied, and
    nothing said so. Now a note names the weight and the flag."""
    draft = tmp_path / "draft"
    shutil.copytree(pre_fc_norm_draft, draft)
    config = json.loads((draft / "config.json").read_text())
    config["norm_before_fc"] = False
    (draft / "config.json").write_text(json.dumps(config))
    notes = _eval(draft, world)["notes"]
    assert any("has input_norm.weight but the config does not set norm_before_fc" in n
               for n in notes), notes
    assert not any("input_norm.weight" in n for n in _eval(pre_fc_norm_draft, world)["notes"])


def test_whole_module_pickled_as_pytorch_model_bin(world, tmp_path):
    """`torch.save(model, "pytorch_model.bin")` of speculators' draft instead of its state
    dict. Before: torch's multi-paragraph weights_only refusal, terminal escapes included,
    offering weights_only=False. Now one line naming the pickled class and the re-save."""
    from speculators.models.eagle3 import Eagle3DraftModel, Eagle3SpeculatorConfig

    draft = tmp_path / "draft"
    shutil.copytree(world / "trained", draft)
    config = Eagle3SpeculatorConfig.from_pretrained(str(draft))
    config.transformer_layer_config._attn_implementation = "eager"
    model = Eagle3DraftModel.from_pretrained(str(draft), config=config)
    (draft / "model.safetensors").unlink()
    torch.save(model, draft / "pytorch_model.bin")
    text = _drafter_error("vocab", "--model", str(draft))
    assert "not a plain state dict of tensors: it pickles speculators." in text, text
    assert "\x1b[" not in text and "weights_only set to `False`" not in text
    assert "model.state_dict()" in text


def _hub_snapshot(hub: Path, repo_id: str, files: dict[str, Path | None]) -> Path:
    """A Hub cache entry as huggingface_hub lays it out: blobs/<etag>, snapshot symlinks to
    them, refs/main. A None source is a file whose download was cut: only its
    blobs/<etag>.<id>.incomplete exists and the snapshot has no link (file_download.py)."""
    repo = hub / ("models--" + repo_id.replace("/", "--"))
    snapshot = repo / "snapshots" / "0123abcd"
    snapshot.mkdir(parents=True)
    (repo / "blobs").mkdir()
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("0123abcd")
    for i, (name, source) in enumerate(files.items()):
        if source is None:
            (repo / "blobs" / f"etag{i}.5f3e9a1c.incomplete").write_bytes(b"\0" * 1024)
            continue
        blob = repo / "blobs" / f"etag{i}"
        shutil.copyfile(source, blob)
        (snapshot / name).symlink_to(Path("..", "..", "blobs", blob.name))
    return snapshot


def test_interrupted_hub_download_of_the_draft_is_named(world, tmp_path):
    """`hf download org/draft` cut during the weights: config.json and the index are in the
    snapshot, the shards only as blobs/*.incomplete. Before: "names shard(s) that are
    missing ... copy every shard listed in the index" (or "no model.safetensors"), with
    nothing about the download. Now the hint says to finish it."""
    sharded = tmp_path / "sharded"
    state = load_file(str(world / "trained" / "model.safetensors"))
    names = sorted(state)
    sharded.mkdir()
    weight_map = {}
    for i, part in enumerate((names[: len(names) // 2], names[len(names) // 2:]), start=1):
        shard = f"model-0000{i}-of-00002.safetensors"
        save_file({n: state[n].contiguous() for n in part}, str(sharded / shard))
        weight_map.update({n: shard for n in part})
    (sharded / "model.safetensors.index.json").write_text(json.dumps({"weight_map": weight_map}))
    hub = tmp_path / "hub"
    _hub_snapshot(hub, "org/draft", {
        "config.json": world / "trained" / "config.json",
        "model.safetensors.index.json": sharded / "model.safetensors.index.json",
        "model-00001-of-00002.safetensors": sharded / "model-00001-of-00002.safetensors",
        "model-00002-of-00002.safetensors": None})
    _hub_snapshot(hub, "org/single", {"config.json": world / "trained" / "config.json",
                                      "model.safetensors": None})
    for repo_id, error in (("org/draft", "names shard(s) that are missing: "
                                         "model-00002-of-00002.safetensors"),
                           ("org/single", "no model.safetensors")):
        result = runner.invoke(drafter_app, ["vocab", "--model", repo_id],
                               env={"HF_HUB_CACHE": str(hub)})
        text = " ".join(result.output.split())
        assert result.exit_code == 2 and "Traceback" not in text, text
        assert error in text and "an interrupted Hub download" in text, text
        assert f"hf download {repo_id}" in text and ".incomplete" in text


def test_dflash_draft_passed_as_eagle3_is_named(world, tmp_path):
    """A DFlash draft as SpecForge writes it (configs/qwen3-8b-dflash.json at this world's
    sizes; DFlashDraftModel: fc over the 5 target layers, hidden_norm, Qwen3 layers, norm;
    specforge/modeling/draft/dflash.py). Before: `vocab` passed and `eval` said "fc.weight takes
    160 inputs = 5 aux states of 32, but eagle_aux_hidden_state_layer_ids is absent (3
    assumed)", a fix that cannot work. Now both name a DFlash draft and how to serve it."""
    config = {"architectures": ["DFlashDraftModel"], "attention_bias": False,
              "auto_map": {"AutoModel": "dflash.DFlashDraftModel"}, "block_size": 16,
              "dflash_config": {"mask_token_id": 200, "target_layer_ids": [1, 2, 3, 4, 5]},
              "dtype": "bfloat16", "head_dim": 8, "hidden_act": "silu", "hidden_size": 32,
              "intermediate_size": 64,
              "layer_types": ["full_attention"] * 2, "max_position_embeddings": 128,
              "max_window_layers": 2, "model_type": "qwen3", "num_attention_heads": 4,
              "num_hidden_layers": 2, "num_key_value_heads": 2, "num_target_layers": 8,
              "rms_norm_eps": 1e-06, "rope_theta": 1000000, "sliding_window": None,
              "tie_word_embeddings": False, "use_sliding_window": False, "vocab_size": V}
    generator = torch.Generator().manual_seed(16)
    state = {"fc.weight": torch.randn(32, 5 * 32, generator=generator),
             "hidden_norm.weight": torch.ones(32), "norm.weight": torch.ones(32)}
    for i in range(2):
        for proj, rows in (("q_proj", 32), ("k_proj", 16), ("v_proj", 16)):
            state[f"layers.{i}.self_attn.{proj}.weight"] = torch.randn(rows, 32, generator=generator)
        state[f"layers.{i}.self_attn.o_proj.weight"] = torch.randn(32, 32, generator=generator)
        for norm in ("self_attn.q_norm", "self_attn.k_norm", "input_layernorm",
                     "post_attention_layernorm"):
            state[f"layers.{i}.{norm}.weight"] = torch.ones(8 if "_norm" in norm[-7:] else 32)
    draft = tmp_path / "dflash"
    draft.mkdir()
    (draft / "config.json").write_text(json.dumps(config))
    save_file({k: v.bfloat16().contiguous() for k, v in state.items()},
              str(draft / "model.safetensors"))
    for command in (["vocab"], ["eval", "--data", str(world / "data")]):
        text = _drafter_error(*command, "--model", str(draft), "--target", str(world / "target"))
        assert "a DFlash-family draft (DFlashDraftModel, block_size 16" in text, text
        assert "aux_hidden_state_layer_ids" not in text and "--speculative-algorithm DFLASH" in text


def test_nextn_mtp_module_passed_as_draft_is_named(world, tmp_path):
    """DeepSeek-V3's NextN layer split out for SGLang (lmsys/DeepSeek-V3-NextN: the target's
    config, its layer 61 saved as layer 0 with eh_proj / enorm / hnorm / shared_head; sglang
    deepseek_nextn.py). Before: "draft decoder model_type 'deepseek_v3' is not supported
    (supported: llama, qwen3)", as if it were an EAGLE-3 draft of another decoder."""
    draft = tmp_path / "nextn"
    draft.mkdir()
    (draft / "config.json").write_text(json.dumps({
        "architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
        "hidden_size": 32, "intermediate_size": 64, "kv_lora_rank": 16, "q_lora_rank": 24,
        "num_attention_heads": 4, "num_hidden_layers": 61, "num_nextn_predict_layers": 1,
        "qk_nope_head_dim": 8, "qk_rope_head_dim": 8, "v_head_dim": 8, "vocab_size": V}))
    generator = torch.Generator().manual_seed(61)
    shapes = {"model.layers.0.eh_proj.weight": (32, 64), "model.layers.0.enorm.weight": (32,),
              "model.layers.0.hnorm.weight": (32,), "model.layers.0.shared_head.norm.weight": (32,),
              "model.layers.0.self_attn.kv_a_layernorm.weight": (16,),
              "model.layers.0.mlp.gate.weight": (8, 32), "model.embed_tokens.weight": (V, 32)}
    save_file({name: torch.randn(shape, generator=generator).bfloat16()
               for name, shape in shapes.items()}, str(draft / "model.safetensors"))
    for command in (["vocab"], ["eval", "--data", str(world / "data")]):
        text = _drafter_error(*command, "--model", str(draft), "--target", str(world / "target"))
        assert "a multi-token-prediction (MTP / NextN) module" in text, text
        assert "not supported (supported: llama, qwen3)" not in text and "NEXTN" in text


def test_state_dict_nested_in_a_training_checkpoint_pickle(world, tmp_path):
    """pytorch_model.bin written as the PyTorch checkpointing recipe saves a training state:
    {"model": model.state_dict(), "optimizer": ..., "epoch": 3}. Before: "missing tensors:
    fc.weight, layers.0.input_layernorm.weight, ..." although every tensor is there. Now it is
    read from under "model", scores as the same draft saved by save_pretrained, and a note
    says engines cannot load it so."""
    draft = tmp_path / "draft"
    shutil.copytree(world / "trained", draft)
    state = load_file(str(draft / "model.safetensors"))
    (draft / "model.safetensors").unlink()
    torch.save({"model": state, "optimizer": {"state": {0: {"step": torch.tensor(3.0)}}},
                "epoch": 3}, draft / "pytorch_model.bin")
    out = _eval(draft, world)
    assert out["counts"] == _eval(world / "trained", world)["counts"]
    assert any("nested under 'model' in its pickle" in n for n in out["notes"]), out["notes"]


def test_checkpoint_paths_given_with_a_tilde(world, tmp_path):
    """A quoted `--model "~/ckpts/eagle3"`, and a playbook's `vocab_mapping: ~/...` var, which
    the drafter_eval probe passes on as given: no shell expands the ~. Before: "draft
    checkpoint directory not found" for a directory that is there. Now ~ is the home of the
    user running the drafter, for --model, --target and --vocab-mapping."""
    home = tmp_path / "home"
    shutil.copytree(world / "trained", home / "ckpts" / "eagle3")
    shutil.copytree(world / "target", home / "models" / "target")
    state = load_file(str(world / "trained" / "model.safetensors"))
    torch.save({"d2t": state["d2t"], "t2d": state["t2d"]}, home / "vocab_mapping.pt")
    result = runner.invoke(drafter_app, ["vocab", "--model", "~/ckpts/eagle3", "--target",
                                         "~/models/target", "--vocab-mapping",
                                         "~/vocab_mapping.pt", "--json"],
                           env={"HOME": str(home)})
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["ok"] is True


def test_specforge_initial_vocab_buffers_are_named(world, tmp_path):
    """SpecForge's LlamaForCausalLMEagle3 is created with t2d = ones(V) and d2t = zeros(DV)
    and gets its maps from load_vocab_mapping; a draft saved without that step keeps them.
    Before: "d2t is all zeros" and "t2d selects 256 ids", with nothing tying them to the
    missing mapping. Now the d2t issue says so and how to re-export."""
    def initial_buffers(state):
        state["d2t"] = torch.zeros_like(state["d2t"])
        state["t2d"] = torch.ones_like(state["t2d"])
        return state

    draft = _rewrite(world / "trained", tmp_path, initial_buffers)
    result = runner.invoke(drafter_app, ["vocab", "--model", str(draft), "--json"])
    assert result.exit_code == 1, result.output
    [zero] = [i for c in json.loads(result.output)["checks"] for i in c["issues"]
              if i["kind"] == "d2t_all_zero"]
    assert zero["code"] == "SD302" and zero["facts"]["initial_buffers"] is True
    assert "buffers SpecForge's draft is created with" in zero["message"]
    assert "--vocab-mapping" in zero["message"]
