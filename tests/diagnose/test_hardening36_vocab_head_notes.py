"""Drafts over the full vocabulary saved by speculators 0.9.0 whose export dropped
lm_head.weight. One ties the head to embed_tokens (tie_word_embeddings): SGLang builds it so,
vLLM never ties a draft's head and serves the target's lm_head in its place. The other does
not tie and keeps draft_vocab_size: vLLM serves the target's head, as it was published, SGLang
a head of its own left unloaded (accept length 1.00). `drafter vocab` says each in a note;
`diagnose`'s vocab step dropped the notes and gave no line at all, also on the engine that
serves the wrong head. Now that engine gets SD303 (error) in the note's words, another an info."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import vocab_step  # noqa: E402
from spec_debug.probes import vocab_maps  # noqa: E402
from tests.diagnose.test_steps import codes, context  # noqa: E402
from tests.eagle3.speculators_world import AUX, H, V, save_perturbed_draft, save_verifier_and_draft  # noqa: E402


def _headless_draft(root: Path, *, tied: bool) -> Path:
    from transformers import LlamaConfig

    layer = LlamaConfig(num_hidden_layers=1, tie_word_embeddings=tied, vocab_size=V, hidden_size=H,
                        intermediate_size=64, num_attention_heads=4, num_key_value_heads=2,
                        head_dim=8, max_position_embeddings=128)
    draft = root / ("tied" if tied else "untied")
    save_perturbed_draft(draft, root / "target", layer, aux=AUX, draft_vocab=V, vocab=V,
                         seed_name=draft.name)
    tensors = load_file(str(draft / "model.safetensors"))
    del tensors["lm_head.weight"]
    save_file(tensors, str(draft / "model.safetensors"), {"format": "pt"})
    return draft


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("head_notes")
    save_verifier_and_draft(root)
    _headless_draft(root, tied=True)
    _headless_draft(root, tied=False)
    return root


def _findings(world: Path, draft: str, engine: str | None):
    host = vocab_maps.run({"draft_model": str(world / draft), "target_model": str(world / "target")})
    facts = vocab_step.parse(host)
    engine_facts = {"engine": {"name": engine, "version": "0.11.0"}} if engine else {}
    return vocab_step.check(context(facts, engine_facts)), host["report"]["notes"]


def test_a_tied_draft_without_its_head_is_an_error_on_vllm(world):
    found, notes = _findings(world, "tied", "vllm")
    [note] = [n for n in notes if n.startswith("no lm_head.weight: the head is the embedding")]
    assert codes(found) == [("SD303", "error")]
    assert found[0].evidence == [note]
    assert found[0].title == "vllm serves another lm_head than the draft was trained with"
    assert "Save lm_head.weight" in found[0].remediation


def test_the_same_draft_on_sglang_keeps_the_note_as_info(world):
    found, _ = _findings(world, "tied", "sglang")
    assert codes(found) == [("SD303", "info")]
    assert "not a fault on sglang" in found[0].title
    unknown, _ = _findings(world, "tied", None)
    assert codes(unknown) == [("SD303", "info")] and "engine unknown" in unknown[0].title


def test_a_full_vocab_draft_without_its_head_is_an_error_on_sglang(world):
    found, notes = _findings(world, "untied", "sglang")
    [note] = [n for n in notes if n.startswith("no lm_head.weight, and draft_vocab_size is the "
                                               "whole vocabulary")]
    assert codes(found) == [("SD303", "error")] and found[0].evidence == [note]
    assert '"draft_vocab_size": null' in found[0].remediation
    assert codes(_findings(world, "untied", "vllm")[0]) == [("SD303", "info")]
