"""Target configs as multimodal checkpoints ship them, through the diagnose configs step.

transformers < 5 saves a composite config's text_config as a diff against the text class's
defaults (PretrainedConfig.to_diff_dict), so a checkpoint whose text model has the default
shape (Llama-4-Scout for Llama4TextConfig) has no hidden_size or num_hidden_layers there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.steps import configs_step
from spec_debug.probes.registry import ProbeContext

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
DRAFT = json.loads((DEMO / "draft" / "config.json").read_text())
# Llama-4-Scout re-saved by transformers 4.5x: the text model IS Llama4TextConfig's default
SCOUT_DIFF = {"architectures": ["Llama4ForConditionalGeneration"], "model_type": "llama4",
              "boi_token_index": 200080, "eoi_token_index": 200081,
              "image_token_index": 200092, "tie_word_embeddings": False,
              "text_config": {"model_type": "llama4_text", "attn_temperature_tuning": True,
                              "torch_dtype": "bfloat16"},
              "transformers_version": "4.51.0"}


def _check(target: dict) -> list:
    facts = configs_step.parse({"draft": {"found": True, "path": "d", "config": DRAFT},
                                "target": {"found": True, "path": "t", "config": target}})
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts,
                       host_facts={"engine": {"name": "sglang", "version": "0.5.22"}, **facts},
                       vars={})
    return facts, configs_step.check(ctx)


def test_diff_saved_text_config_is_read_with_its_class_defaults():
    """Before: KeyError 'num_hidden_layers' out of the configs step (a traceback in a
    playbook run). Now the keys come from Llama4TextConfig, as transformers reads them."""
    transformers = pytest.importorskip("transformers")
    truth = transformers.AutoConfig.for_model("llama4_text")
    facts, findings = _check(SCOUT_DIFF)
    target = facts["configs"]["target"]
    assert (target["num_hidden_layers"], target["hidden_size"], target["vocab_size"]) == (
        truth.num_hidden_layers, truth.hidden_size, truth.vocab_size)
    assert "layers" in facts["configs"]


def test_text_config_without_sizes_is_not_checked_rather_than_a_crash():
    """A text model transformers does not know (custom code) and no sizes: say so."""
    target = {"model_type": "kimi_k25", "text_config": {"model_type": "kimi_k2_custom"}}
    _, findings = _check(target)
    assert any(f.code == "SD004" and "num_hidden_layers" in f.title + " ".join(f.evidence)
               for f in findings), findings
