"""A speculators draft over the full vocabulary (draft_vocab_size = vocab_size, no map) whose
decoder config sets tie_word_embeddings and whose export dropped lm_head.weight. Eval scores
it with the embedding as head (as SGLang builds it) and said vLLM needs lm_head.weight, but not
what speculators does: its from_pretrained does not tie either, reports lm_head.weight MISSING
and leaves a random head, so training cannot resume from the file. Now the note says so."""

from __future__ import annotations

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import AUX, H, V, save_informative_world, save_perturbed_draft  # noqa: E402


def test_a_tied_speculators_draft_without_its_head_says_speculators_cannot_resume(tmp_path):
    from transformers import LlamaConfig

    world = save_informative_world(tmp_path / "world", seed=1)
    layer = LlamaConfig(num_hidden_layers=1, tie_word_embeddings=True, vocab_size=V, hidden_size=H,
                        intermediate_size=64, num_attention_heads=4, num_key_value_heads=2,
                        head_dim=8, max_position_embeddings=128)
    draft = tmp_path / "tied"
    save_perturbed_draft(draft, world / "target", layer, aux=AUX, draft_vocab=V, vocab=V,
                         seed_name="tied")
    tensors = load_file(str(draft / "model.safetensors"))
    del tensors["lm_head.weight"]
    save_file(tensors, str(draft / "model.safetensors"), {"format": "pt"})
    result = evaluate_drafter(draft, world / "data", world / "target")
    [note] = [n for n in result["notes"] if n.startswith("no lm_head.weight")]
    assert note.endswith("save it too to serve the draft there; speculators' from_pretrained "
                         "does not tie it either (lm_head.weight MISSING: a random head), so "
                         "training cannot resume from this checkpoint")
