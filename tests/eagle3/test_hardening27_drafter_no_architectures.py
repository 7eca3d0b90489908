"""An EAGLE-format (SpecForge/SGLang) draft config without `architectures`: vLLM builds the
draft's class from it (transformers_utils/configs/eagle.py EAGLEConfig iterates
self.model.architectures, None when absent) and stops at startup; SGLang picks the class by
it too. The drafter scored such a draft with no word; it now says so and what to write.
speculators' configs name the class by speculators_model_type and get no note."""

from __future__ import annotations

import pytest

pytest.importorskip("torch")

from spec_debug.eagle3.config import parse_draft_config  # noqa: E402
from spec_debug.eagle3.loading import _no_architectures_note  # noqa: E402

EAGLE = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 32,
         "num_attention_heads": 4, "num_key_value_heads": 2, "intermediate_size": 64,
         "vocab_size": 256, "draft_vocab_size": 128, "num_hidden_layers": 1,
         "eagle_config": {"eagle_aux_hidden_state_layer_ids": [2, 4, 5]}}


@pytest.mark.parametrize("architectures", [None, []])
def test_an_eagle_config_without_architectures_is_named(architectures):
    raw = {k: v for k, v in EAGLE.items() if k != "architectures"}
    if architectures is not None:
        raw["architectures"] = architectures
    note = _no_architectures_note(parse_draft_config(raw))
    assert note is not None and note.startswith("the draft's config.json has ")
    assert "vLLM builds the draft's class name from it and fails to start" in note
    assert note.endswith('add "architectures": ["LlamaForCausalLMEagle3"] (what SpecForge writes)')


def test_a_named_class_or_a_speculators_config_is_not():
    assert _no_architectures_note(parse_draft_config(EAGLE)) is None
    speculators = {"speculators_model_type": "eagle3", "draft_vocab_size": 128,
                   "transformer_layer_config": {k: v for k, v in EAGLE.items()
                                                if k not in ("architectures", "eagle_config",
                                                             "draft_vocab_size")},
                   "eagle_aux_hidden_state_layer_ids": [2, 4, 5]}
    assert _no_architectures_note(parse_draft_config(speculators)) is None
