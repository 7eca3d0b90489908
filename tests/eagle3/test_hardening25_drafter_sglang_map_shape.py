"""A d2t saved as [1, N] or [N, 1]: what SGLang does with it, said in SD302.

SGLang does not refuse the shape as speculators and vLLM do: LlamaForCausalLMEagle3.load_weights
sets hot_token_id = d2t + arange(d2t.shape[0]) (sgl-project/sglang
python/sglang/srt/models/llama_eagle3.py, commit 03d5a77) and draft_forward indexes
hot_token_id[topk_index] (speculative/eagle_worker.py). The finding said only 'speculators and
vLLM refuse it', so a user serving with SGLang read it as not theirs; it now names SGLang's
failure for each shape. The arithmetic below is SGLang's, on a map of the tiny world's size."""

from __future__ import annotations

import pytest

from spec_debug.eagle3.vocab import check_map_shapes

torch = pytest.importorskip("torch")

DV = 128


def _sglang_hot_token_id(d2t):
    return d2t + torch.arange(d2t.shape[0])  # as SGLang's load_weights computes it


def test_a_row_d2t_names_sglangs_out_of_range_index():
    d2t = torch.zeros(1, DV, dtype=torch.long)
    with pytest.raises(IndexError, match="out of bounds"):
        _sglang_hot_token_id(d2t)[torch.tensor([[3, 7]])]  # a draft step's top-k ids
    (issue,) = check_map_shapes([1, DV], None).issues
    assert issue.kind == "d2t_length"
    assert "SGLang loads it, then its draft step breaks" in issue.message
    assert "out of range" in issue.message and "save d2t.reshape(-1)" in issue.message


def test_a_column_d2t_names_sglangs_square_table():
    d2t = torch.zeros(DV, 1, dtype=torch.long)
    assert list(_sglang_hot_token_id(d2t).shape) == [DV, DV]
    (issue,) = check_map_shapes([DV, 1], None).issues
    assert f"[{DV}, {DV}] table" in issue.message and "SGLang" in issue.message


def test_t2d_still_says_sglang_does_not_read_it():
    (issue,) = check_map_shapes(None, [1, 256]).issues
    assert "vLLM and SGLang do not read t2d" in issue.message
