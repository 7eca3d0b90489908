"""A draft whose t2d is not the [V] mask speculators saves, its d2t intact: only training reads
t2d (speculators' load_vocab_mappings refuses it). vLLM and SGLang skip every tensor named t2d
when they load an EAGLE-3 draft (vLLM model_executor/models/llama_eagle3.py
Eagle3LlamaForCausalLM.load_weights: `if "t2d" in name: continue`; SGLang
srt/models/llama_eagle3.py LlamaForCausalLMEagle3.load_weights, the same) and map draft ids
with d2t alone, so the server starts and serves as with the right t2d.

Before: the configs and vocab steps gave SD303 as an error ("t2d has N entries, the target
vocab is V"), as for an embedding or head the engines cannot load, and a run failed over a
draft that serves. Now a finding of t2d lines alone is a warning whose line says that only
training reads t2d; with an engine-breaking line beside it (embed_tokens, lm_head rows) it
stays an error. The world is a speculators 0.9.0 draft; t2d rewritten with safetensors'
save_file."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.speculators_world import DV, V  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401
from tests.eagle3.test_hardening71_vocab_shapes_configs import (_edit, _rewrite_draft, _vocab_lines,  # noqa: E402
                                                                 _vocab_step)

ONLY_TRAINING = ("only training reads t2d (speculators' load_vocab_mappings refuses it, so "
                 "resuming training or evaluating the draft fails): vLLM and SGLang skip t2d when "
                 "they load the draft and map draft ids with d2t alone, so the server starts")


@pytest.fixture
def padded(tmp_path, world):
    """t2d with 16 more False entries past the target's ids: it selects what d2t maps."""
    import torch

    root = tmp_path / "world"
    shutil.copytree(world, root)
    _rewrite_draft(root, lambda tensors: {**tensors, "t2d": torch.cat(
        [tensors["t2d"], torch.zeros(16, dtype=torch.bool)])})
    return root


def test_the_configs_step_says_a_t2d_of_another_length_is_a_warning_only_training_reads(padded):
    assert _vocab_lines(_configs(padded, VLLM)) == [("SD303", "warning", [
        f"t2d has {V + 16} entries, the target vocab is {V}; {ONLY_TRAINING}"])]


def test_the_vocab_step_says_it_as_a_warning_with_its_own_words(padded):
    """The vocab step reads the values: its line says already that serving reads d2t only."""
    [(code, severity, [line])] = _vocab_step(padded)
    assert (code, severity) == ("SD303", "warning")
    assert line.startswith(f"t2d has {V + 16} entries, the target vocab is {V}; it selects the "
                           "same ids as d2t, which is all vLLM and SGLang read")
    assert ONLY_TRAINING not in line


def test_a_t2d_line_beside_an_embedding_the_engines_cannot_load_stays_an_error(padded):
    _edit(padded / "draft" / "config.json", draft_vocab_size=DV - 28)
    [(code, severity, lines)] = _vocab_lines(_configs(padded, VLLM))
    assert (code, severity) == ("SD303", "error")
    assert lines[0] == f"t2d has {V + 16} entries, the target vocab is {V}"
    assert lines[1].startswith(f"config draft_vocab_size is {DV - 28} but lm_head has {DV} rows")
