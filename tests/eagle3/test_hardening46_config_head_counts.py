"""A speculators draft whose transformer_layer_config was edited so the engines cannot build
it: num_key_value_heads 3 under num_attention_heads 4 (vLLM's Attention asserts num_heads %
num_kv_heads == 0, vllm attention/layer.py; speculators' k_proj/v_proj would be 24 rows where
the weights have 16), or num_attention_heads dropped (speculators, vLLM and SGLang then build
LlamaConfig's default 32 heads). The config reader refused both, rightly, but said only what
was wrong: the eval error and the configs step's SD004 line named no way out. Both now say
which key to write and where its value shows in the weights. Saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.checkpoint import open_draft  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401

KV_HINT = ("set num_key_value_heads to the rows of layers.0.self_attn.k_proj.weight divided by "
           "head_dim (a divisor of 4); vLLM refuses to build this attention and speculators "
           "cannot load its k_proj/v_proj")
HEADS_HINT = ("add num_attention_heads to the draft's decoder config (transformer_layer_config "
              "in a speculators config): the rows of layers.0.self_attn.q_proj.weight divided "
              "by head_dim; without it speculators, vLLM and SGLang build the transformers class "
              "default, which the weights do not fit")


def _edited(tmp_path, world, edit):
    root = tmp_path / "edited"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    edit(config["transformer_layer_config"])
    path.write_text(json.dumps(config, indent=2))
    return root


def _sd004_line(root):
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD004"]
    [line] = [e for e in finding.evidence if "could not be read as an EAGLE-3 config" in e]
    return line


@pytest.mark.parametrize("edit, message, hint", [
    (lambda layer: layer.__setitem__("num_key_value_heads", 3),
     "num_attention_heads 4 is not a multiple of num_key_value_heads 3", KV_HINT),
    (lambda layer: layer.pop("num_attention_heads"), "no 'num_attention_heads'", HEADS_HINT),
], ids=["kv_heads_not_dividing", "no_attention_heads"])
def test_an_unbuildable_head_count_names_the_key_to_write(tmp_path, world, edit, message, hint):
    root = _edited(tmp_path, world, edit)
    with pytest.raises(CheckpointError) as refused:
        open_draft(root / "draft")  # what evaluate_drafter and load_draft open first
    assert refused.value.message == f"{root / 'draft' / 'config.json'}: {message}"
    assert refused.value.hint == hint
    line = _sd004_line(root)
    assert f"(config.json: {message})" in line
    assert line.endswith(f"; to fix it: {hint}")


def test_the_draft_as_saved_reads(world):
    assert not [f for f in _configs(world, VLLM) if f.code == "SD004"]
