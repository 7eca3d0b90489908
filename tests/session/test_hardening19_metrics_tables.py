"""A benchmark table whose rows name their draft depth: the rows that draft nothing (steps, topk
and num_draft_tokens all 0) are the baseline of their batch size, read from the batch_size column
(not the first column, tp); their accept_length 1.0 is no drafter's. Table as posted in
https://github.com/Tencent/AngelSlim/issues/163 (Qwen3-30B-A3B with EAGLE3, H100*4)."""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.baselines import row_key
from spec_debug.session.metrics import extract_metrics
from tests.session.incident_story import _Writer

START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000bb1f"
ANGELSLIM_163 = """\
I really appreciate this project and the trained weight. But I can't reproduce the results of Qwen3-30B-A3B with EAGLE3 which there is speed degrade.

### My results:
tp | ep | batch_size | steps | topk | num_draft_tokens | latency | throughput | accept_length
-- | -- | -- | -- | -- | -- | -- | -- | --
4 | 1 | 1 | 0 | 0 | 0 | 795.87 | 218.89 | 1.0
4 | 1 | 4 | 0 | 0 | 0 | 343.27 | 507.49 | 1.0
4 | 1 | 8 | 0 | 0 | 0 | 260.86 | 677.14 | 1.0
4 | 1 | 32 | 0 | 0 | 0 | 155.93 | 1128.30 | 1.0
4 | 1 | 64 | 0 | 0 | 0 | 144.17 | 1237.84 | 1.0
4 | 1 | 1 | 3 | 3 | 4 | 1032.34 | 170.35 | 2.017
4 | 1 | 1 | 3 | 2 | 8 | 953.52 | 185.28 | 2.216
4 | 1 | 1 | 4 | 4 | 16 | 935.56 | 185.64 | 2.542
4 | 1 | 1 | 7 | 10 | 64 | 915.48 | 193.31 | 3.034
4 | 1 | 4 | 4 | 4 | 16 | 356.15 | 476.37 | 2.556
4 | 1 | 8 | 4 | 4 | 16 | 258.10 | 673.14 | 2.578
4 | 1 | 32 | 4 | 4 | 16 | 187.84 | 927.11 | 2.560
4 | 1 | 64 | 4 | 4 | 16 | 135.72 | 1307.95 | 2.553
"""


def test_rows_that_draft_nothing_are_the_baselines_of_their_batch_size():
    found = extract_metrics(ANGELSLIM_163)
    baselines = [(m.value, row_key(m.context, m.value)) for m in found if m.name == "baseline_throughput"]
    # before: no baseline, and every row of batch size 4 (the tp column)
    assert baselines == [(218.89, "1"), (507.49, "4"), (677.14, "8"), (1128.3, "32"), (1237.84, "64")]
    assert [(m.value, row_key(m.context, m.value)) for m in found if m.name == "throughput"][:2] == \
        [(170.35, "1"), (185.28, "1")]
    # the no-speculation rows' accept_length 1.0 is no drafter's
    assert 1.0 not in [m.value for m in found if m.name == "accept_length"]


def test_each_eagle3_row_slower_than_its_batch_sizes_baseline_is_sd501(tmp_path):
    w = _Writer(SESSION, None, START)
    w.prompt(ANGELSLIM_163)
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    evidence = [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]
    # before: no SD501 at all
    assert any("170.35 tok/s measured vs 218.89 tok/s baseline" in line for line in evidence)
    assert not any("1307.95 tok/s" in line for line in evidence)  # bs=64 is faster than its 1237.84


def test_without_eagle3_then_with_eagle3_lines_are_sd501(tmp_path):
    # https://github.com/Tencent/AngelSlim/issues/9, as posted (a regression guard: read before too)
    w = _Writer(SESSION, None, START)
    w.prompt("Poor performance with Qwen3 A3B eagle3.\n\nWithout eagle3: ~130 tokens/s\nWith eagle3: ~60 tokens/s\n\n"
             "sglang version: 0.4.9.post2\n")
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    evidence = [line for f in analyze_path(path).findings if f.code == "SD501" for line in f.evidence]
    assert len(evidence) == 1 and "60 tok/s measured vs 130 tok/s baseline" in evidence[0]


# https://github.com/sgl-project/sglang/issues/26171 (B30Z, Qwen3-8B + EAGLE3), as posted
SGLANG_26171 = """\
**Benchmark (B30Z, Qwen3-8B + EAGLE3, single GPU, bf16):**

| Benchmark | Baseline (tok/s) | EAGLE-3 Before Fix | EAGLE-3 After Fix | Speedup Change |
|-----------|:-:|:-:|:-:|:-:|
| gsm8k | 260 | ~355 (1.37x) | 384.4 (1.48x) | +8% |
| math500 | 260 | ~287 (1.10x) | 389.5 (1.50x) | +36% |
| humaneval | 260 | ~259 (1.00x) | 358.2 (1.38x) | +38% |
| mtbench | 260 | ~321 (1.23x) | 365.5 (1.41x) | +14% |
"""


def test_a_table_with_one_hyphen_rule_cells_and_unitless_run_columns_is_read():
    found = [(m.name, m.value) for m in extract_metrics(SGLANG_26171)]
    # before: nothing (the ":-:" cells were no delimiter row; the EAGLE-3 columns named no unit)
    assert found[:3] == [("baseline_throughput", 260.0), ("throughput", 355.0), ("throughput", 384.4)]
    assert len([f for f in found if f[0] == "throughput"]) == 8


def test_count_and_accept_columns_beside_a_throughput_column_stay_what_they_are():
    # https://github.com/sgl-project/SpecForge/issues/339's EAGLE3 table: num_draft is the draft's
    # depth, "acc len" the accept length
    text = ("bs | steps | topk | num_draft | throughput | acc len\n-- | -- | -- | -- | -- | --\n"
            "1 | 3 | 1 | 4 | 159.78 | 1.86\n")
    assert [(m.name, m.value) for m in extract_metrics(text)] == [("throughput", 159.78), ("accept_length", 1.86)]
