"""The demo host's drafts are in the format SGLang loads.

Before: `spec-debug demo` "served" on SGLang a draft in speculators' format (config.json with
speculators_model_type, speculators_config, transformer_layer_config, architectures
["Eagle3DraftModel"], no model_type; tensors `layers.0.*`), which no SGLang release loads
(SD711): the demo taught something untrue, and its SD101 said the depth came from "speculative_tokens
of its speculators_config". Now: draft/ and draft_fixed/ hold the hand conversion SGLang loads (a
flat llama config with architectures ["LlamaForCausalLMEagle3"], the decoder layer as `midlayer.*`),
built by scripts/build_demo_fixture.py, with the incident's slip told truthfully (the trained aux
ids left at the top level, which SGLang does not read); the demo's findings and exit codes are the
same: SD101, SD201 and SD501 errors, and the healthy variant clean.
"""

from __future__ import annotations

import importlib.util
import json
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEMO = ROOT / "spec_debug" / "data" / "demo"


def _header_names(path: Path) -> list[str]:
    raw = path.read_bytes()
    size = int.from_bytes(raw[:8], "little")
    return sorted(k for k in json.loads(raw[8:8 + size]) if k != "__metadata__")


@pytest.mark.parametrize("variant", ["draft", "draft_fixed"])
def test_the_demo_drafts_are_sglang_format(variant):
    config = json.loads((DEMO / variant / "config.json").read_text())
    assert config["architectures"] == ["LlamaForCausalLMEagle3"] and config["model_type"] == "llama"
    assert not {"speculators_model_type", "speculators_config", "transformer_layer_config"} & set(config)
    assert (config["hidden_size"], config["num_hidden_layers"], config["draft_vocab_size"]) == (32, 1, 192)
    assert config["num_lookahead_tokens"] == 3
    # the slip: the trained ids at the top level, where SGLang does not read them
    assert config["eagle_aux_hidden_state_layer_ids"] == [0, 2, 4]
    assert config.get("eagle_config") == (None if variant == "draft" else {"eagle_aux_hidden_state_layer_ids": [-1, 1, 3]})
    names = _header_names(DEMO / variant / "model.safetensors")
    assert not [n for n in names if n.startswith("layers.")]
    assert [n for n in names if not n.startswith("midlayer.")] == ["d2t", "embed_tokens.weight", "fc.weight",
                                                                   "lm_head.weight", "norm.weight", "t2d"]
    assert len([n for n in names if n.startswith("midlayer.")]) == 10


def test_the_builders_conversion_of_a_speculators_config():
    spec = importlib.util.spec_from_file_location("build_demo_fixture", ROOT / "scripts" / "build_demo_fixture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    speculators_cfg = {
        "architectures": ["Eagle3DraftModel"], "speculators_model_type": "eagle3", "draft_vocab_size": 192,
        "eagle_aux_hidden_state_layer_ids": [0, 2, 4],
        "speculators_config": {"proposal_methods": [{"proposal_type": "greedy", "speculative_tokens": 3}]},
        "transformer_layer_config": {"model_type": "llama", "hidden_size": 32, "vocab_size": 256,
                                     "rope_parameters": {"rope_type": "default", "rope_theta": 10000.0}}}
    assert module.sglang_config(speculators_cfg) == {
        "architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "hidden_size": 32, "vocab_size": 256,
        "rope_theta": 10000.0, "rope_scaling": None, "draft_vocab_size": 192, "num_lookahead_tokens": 3,
        "eagle_aux_hidden_state_layer_ids": [0, 2, 4], "tie_word_embeddings": False, "torch_dtype": "float32"}
    readme = (DEMO / "README.md").read_text()
    assert "converted by hand" in readme and "saved in speculators format: the ids" not in readme


def test_the_demo_findings_are_unchanged_and_read_the_converted_draft(tmp_path, monkeypatch):
    pytest.importorskip("torch")
    from spec_debug.demo import run_demo

    monkeypatch.setenv("OMP_NUM_THREADS", "1")
    broken = run_demo(False, tmp_path / "broken")
    assert broken.record.status == "failed"
    errors = Counter(f.code for f in broken.record.findings if f.severity == "error")
    assert errors == Counter({"SD101": 1, "SD201": 1, "SD501": 1})
    sd101 = next(f for f in broken.record.findings if f.code == "SD101")
    assert sd101.evidence[-1] == ("the draft was trained/exported for 3 speculative tokens "
                                  "(num_lookahead_tokens of its config.json)")
    assert not [f for f in broken.record.findings if f.code == "SD711"]
