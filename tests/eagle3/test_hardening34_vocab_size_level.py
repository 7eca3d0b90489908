"""A speculators config whose vocab_size sits at the top level instead of in
transformer_layer_config (a hand edit, or a converter that wrote the HF keys flat): speculators
builds the decoder from transformer_layer_config alone, so transformers' default 32000 stands
and loading fails on embed_tokens' shape. The drafter said "config.json: no 'vocab_size'",
with nothing on where the key belongs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.config import parse_draft_config  # noqa: E402
from spec_debug.errors import SpecDebugError  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


def test_vocab_size_beside_transformer_layer_config_is_named_there(tmp_path: Path) -> None:
    save_verifier_and_draft(tmp_path)
    raw = json.loads((tmp_path / "draft" / "config.json").read_text())
    assert parse_draft_config(raw).vocab_size == raw["transformer_layer_config"]["vocab_size"]
    moved = dict(raw, vocab_size=raw["transformer_layer_config"]["vocab_size"])
    moved["transformer_layer_config"] = {k: v for k, v in raw["transformer_layer_config"].items()
                                         if k != "vocab_size"}
    with pytest.raises(SpecDebugError) as err:
        parse_draft_config(moved)
    assert "no 'vocab_size' in transformer_layer_config" in err.value.message
    assert f"the top level has {moved['vocab_size']}" in err.value.message
    assert "transformer_layer_config" in (err.value.hint or "")
