"""`drafter vocab` on drafts whose head is not a plain lm_head.weight of their own, saved by
speculators 0.9.0 and then cut or re-laid-out the way exports do. Before: a draft without
lm_head.weight passed (`lm_head_rows skipped`, exit 0) although eval refuses it and no engine
serves its trained head; a head tied to the embedding, or a tie the engines read differently,
was said by eval only."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from typer.testing import CliRunner  # noqa: E402

from spec_debug.eagle3.commands import drafter_app  # noqa: E402
from tests.eagle3.speculators_world import AUX, DV, H, V, save_informative_world, save_perturbed_draft  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    return save_informative_world(tmp_path_factory.mktemp("world"), seed=1)


def _draft(world: Path, out: Path, *, draft_vocab: int, tie: bool = False) -> Path:
    from transformers import LlamaConfig

    layer = LlamaConfig(num_hidden_layers=1, tie_word_embeddings=tie, vocab_size=V, hidden_size=H,
                        intermediate_size=64, num_attention_heads=4, num_key_value_heads=2,
                        head_dim=8, max_position_embeddings=128)
    save_perturbed_draft(out, world / "target", layer, aux=AUX, draft_vocab=draft_vocab, vocab=V,
                         seed_name=out.name)
    return out


def _drop_head(draft: Path) -> None:
    tensors = load_file(str(draft / "model.safetensors"))
    del tensors["lm_head.weight"]
    save_file(tensors, str(draft / "model.safetensors"), {"format": "pt"})


def _as_eagle(draft: Path, out: Path, **config) -> Path:
    """The same weights as SpecForge/EAGLE lay them out: a flat llama config, midlayer.*."""
    layer = json.loads((draft / "config.json").read_text())["transformer_layer_config"]
    out.mkdir()
    (out / "config.json").write_text(json.dumps({
        **layer, "architectures": ["LlamaForCausalLMEagle3"],
        "eagle_config": {"eagle_aux_hidden_state_layer_ids": AUX}, **config}))
    state = load_file(str(draft / "model.safetensors"))
    save_file({k.replace("layers.0.", "midlayer."): v for k, v in state.items()},
              str(out / "model.safetensors"))
    return out


def _check(report: dict, name: str) -> dict:
    [check] = [c for c in report["checks"] if c["name"] == name]
    return check


def test_a_pruned_draft_saved_without_its_head_fails_the_head_check(world, tmp_path):
    draft = _draft(world, tmp_path / "pruned", draft_vocab=DV)
    _drop_head(draft)
    report = check_drafter_vocab(draft, world / "target")
    assert report["ok"] is False
    check = _check(report, "lm_head_rows")
    assert check["skipped"] is False and check["ok"] is False
    [issue] = check["issues"]
    assert issue["code"] == "SD303"
    assert issue["message"].startswith(f"no lm_head.weight, but the config's draft_vocab_size {DV} "
                                       f"asks for the draft's own [{DV}, {H}] head")
    result = CliRunner().invoke(drafter_app, ["vocab", "--model", str(draft), "--target",
                                              str(world / "target")])
    assert result.exit_code == 1
    assert "lm_head_rows   FAIL" in result.output


def test_a_full_vocab_draft_without_its_head_is_scored_with_the_targets(world, tmp_path):
    """As nvidia/Kimi-K2.6-Eagle3 is published: draft_vocab_size == vocab_size, no lm_head.
    vLLM shares the target's head with it (vllm-project/vllm#28549); SGLang leaves a head of its
    own unloaded (sgl-project/sglang#27829). Before: eval refused it ("missing tensors:
    lm_head.weight") and vocab passed it in silence."""
    draft = _draft(world, tmp_path / "full", draft_vocab=V)
    _drop_head(draft)
    report = check_drafter_vocab(draft, world / "target")
    assert report["ok"] is True
    [note] = [n for n in report["notes"] if n.startswith("no lm_head.weight, and draft_vocab_size "
                                                         "is the whole vocabulary: the head is "
                                                         "the target's lm_head")]
    assert "sgl-project/sglang#27829" in note
    result = evaluate_drafter(draft, world / "data", world / "target")
    assert note in result["notes"]
    # scored with the target's head: the same numbers as the draft with that head saved in it
    with_head = tmp_path / "with_head"
    shutil.copytree(draft, with_head)
    tensors = load_file(str(with_head / "model.safetensors"))
    tensors["lm_head.weight"] = load_file(str(world / "target" / "model.safetensors"))["lm_head.weight"]
    save_file(tensors, str(with_head / "model.safetensors"), {"format": "pt"})
    saved = evaluate_drafter(with_head, world / "data", world / "target")
    assert result["full_accuracy"] == saved["full_accuracy"]
    assert result["counts"] == saved["counts"]


def test_a_tied_draft_without_its_head_says_where_the_head_comes_from(world, tmp_path):
    draft = _draft(world, tmp_path / "tied", draft_vocab=V, tie=True)
    _drop_head(draft)
    report = check_drafter_vocab(draft, world / "target")
    assert report["ok"] is True
    assert _check(report, "lm_head_rows")["skipped"] is True
    [note] = [n for n in report["notes"]
              if n.startswith("no lm_head.weight: the head is the embedding (tie_word_embeddings)")]
    # vLLM's proposer shares the target's lm_head with a draft whose file has none
    # (models/utils.py process_eagle_weight, v1/spec_decode): it does not refuse the draft
    assert "without lm_head.weight it serves the target's lm_head in its place" in note


def test_a_tied_config_over_a_smaller_head_is_refused_by_the_head_check(world, tmp_path):
    draft = _draft(world, tmp_path / "tiedpruned", draft_vocab=DV, tie=True)
    _drop_head(draft)
    report = check_drafter_vocab(draft, world / "target")
    [issue] = _check(report, "lm_head_rows")["issues"]
    assert issue["message"].startswith("no lm_head.weight and the config ties it to the embedding")


def test_an_eagle_layout_draft_that_ties_and_stores_its_own_head_is_noted(world, tmp_path):
    # SGLang builds lm_head = embed_tokens under the tie and drops the stored head
    draft = _draft(world, tmp_path / "stored", draft_vocab=DV, tie=True)
    eagle = _as_eagle(draft, tmp_path / "eagle", draft_vocab_size=DV)
    report = check_drafter_vocab(eagle, world / "target")
    assert any(note.startswith("the config sets tie_word_embeddings but the checkpoint has its own "
                               "lm_head.weight") for note in report["notes"])


def test_an_eagle_layout_draft_without_head_or_draft_vocab_uses_the_target_head(world, tmp_path):
    draft = _draft(world, tmp_path / "nohead", draft_vocab=V)
    _drop_head(draft)
    eagle = _as_eagle(draft, tmp_path / "eagle")
    report = check_drafter_vocab(eagle, world / "target")
    assert report["ok"] is True
    assert any(note.startswith("no lm_head.weight and no draft_vocab_size: the head is the "
                               "target's lm_head") for note in report["notes"])
