"""A draft whose d2t is not draft_vocab_size long: the SD302 line says what the engines do.

Before: "d2t has N entries, draft vocab is DV", the two lengths alone, from the configs step
(headers) and the vocab step (values). vLLM loads d2t into its [DV] draft_id_to_target_id
parameter (model_executor/models/llama_eagle3.py Eagle3LlamaForCausalLM) with
default_weight_loader, which asserts equal sizes (model_loader/weight_utils.py), so the server
does not start; SGLang checks nothing (srt/models/llama_eagle3.py load_weights: hot_token_id =
d2t + arange(len(d2t))), and its draft step indexes that map with its top-k draft ids: one cut
short breaks at the first draft id past its end, one run long is read to DV only. The world is a
speculators 0.9.0 draft; d2t rewritten with safetensors' save_file."""

from __future__ import annotations

import os
import shutil

import pytest

from spec_debug.eagle3.vocab import check_vocab_maps

V_SMALL, DV_SMALL = 256, 128
SELECTED = list(range(0, 2 * DV_SMALL, 2))
D2T = [t - i for i, t in enumerate(SELECTED)]
T2D = [1 if i in SELECTED else 0 for i in range(V_SMALL)]


def _vllm(dv: int) -> str:
    return (f"vLLM loads d2t into its [{dv}] draft_id_to_target_id, whose loader asserts equal "
            "sizes, and does not start")


def test_a_short_d2t_says_both_engines_and_keeps_the_fix():
    [issue] = check_vocab_maps(d2t=D2T[:-1], t2d=T2D, target_vocab_size=V_SMALL,
                               draft_vocab_size=DV_SMALL).issues
    assert (issue.kind, issue.code) == ("d2t_length", "SD302")
    assert issue.message == (
        f"d2t has 127 entries, draft vocab is 128: {_vllm(128)}; SGLang loads it as its hot-token "
        "map and breaks at the first draft id of 127 or more (hot_token_id[topk_index] out of "
        "range: a CUDA device-side assert); t2d selects 128 ids, one per lm_head row: save d2t "
        "again from it (d2t = t2d.nonzero().squeeze(1) - arange(DV))")


def test_a_long_d2t_says_sglang_reads_its_first_entries_only():
    d2t = D2T + [D2T[-1]] * 3
    issues = check_vocab_maps(d2t=d2t, t2d=T2D, target_vocab_size=V_SMALL,
                              draft_vocab_size=DV_SMALL).issues
    [line] = [i.message for i in issues if i.kind == "d2t_length"]
    assert line.startswith(f"d2t has 131 entries, draft vocab is 128: {_vllm(128)}; SGLang loads it "
                           "and reads only its first 128 entries")


@pytest.fixture
def copy(tmp_path):
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from tests.eagle3.test_hardening39_config_hidden_size import save_verifier_and_draft

    root = tmp_path / "world"
    save_verifier_and_draft(root)
    return root


def test_the_configs_step_says_it_from_the_headers(copy):
    from tests.eagle3.speculators_world import DV
    from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs
    from tests.eagle3.test_hardening71_vocab_shapes_configs import _rewrite_draft, _vocab_lines

    _rewrite_draft(copy, lambda tensors: {**tensors, "d2t": tensors["d2t"][:DV - 28].clone()})
    assert _vocab_lines(_configs(copy, VLLM)) == [("SD302", "error", [
        f"d2t has {DV - 28} entries, draft vocab is {DV}: {_vllm(DV)}; SGLang loads it as its "
        f"hot-token map and breaks at the first draft id of {DV - 28} or more "
        "(hot_token_id[topk_index] out of range: a CUDA device-side assert)"])]
