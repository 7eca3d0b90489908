"""A d2t one entry short (127 offsets for a 128-row lm_head; speculators' own save with the
last entry cut) beside a t2d selecting 128 ids. Was two SD302 lines: 'd2t has 127 entries,
draft vocab is 128' with no fix, and 'arange(DV) + d2t differs from t2d.nonzero() at 0 of
127 draft ids, first at draft id 127', which restates the length as a mismatch. Now one line
with the fix: rebuild d2t from t2d."""

from __future__ import annotations

from spec_debug.eagle3.vocab import check_vocab_maps

V, DV = 256, 128
SELECTED = list(range(0, 2 * DV, 2))
D2T = [t - i for i, t in enumerate(SELECTED)]
T2D = [1 if i in SELECTED else 0 for i in range(V)]


def test_a_short_d2t_is_one_line_with_the_fix():
    report = check_vocab_maps(d2t=D2T[:-1], t2d=T2D, target_vocab_size=V, draft_vocab_size=DV)
    [issue] = report.issues
    assert issue.kind == "d2t_length" and issue.code == "SD302"
    assert issue.message == ("d2t has 127 entries, draft vocab is 128: vLLM loads d2t into its [128] "
                             "draft_id_to_target_id, whose loader asserts equal sizes, and does not "
                             "start; SGLang loads it as its hot-token map and breaks at the first "
                             "draft id of 127 or more (hot_token_id[topk_index] out of range: a CUDA "
                             "device-side assert); t2d selects 128 ids, one "
                             "per lm_head row: save d2t again from it (d2t = "
                             "t2d.nonzero().squeeze(1) - arange(DV))")


def test_a_short_d2t_that_also_disagrees_keeps_the_mismatch():
    d2t = D2T[:-1]
    d2t[5] += 1
    kinds = [i.kind for i in check_vocab_maps(d2t=d2t, t2d=T2D, target_vocab_size=V,
                                              draft_vocab_size=DV).issues]
    assert kinds == ["d2t_length", "d2t_t2d_mismatch"]
