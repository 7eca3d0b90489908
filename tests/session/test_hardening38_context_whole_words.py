"""A reading's context (metrics[].context, which baseline pairing reads for the batch size)
ends on a whole word: cut 60 characters after the reading, "at bs=16" read as "at bs=1", and
an 800 tok/s reading at bs=16 was compared with bs=1's 100 tok/s baseline, so the SD501 of a
draft slower than its own row's 900 tok/s baseline was never raised."""

from __future__ import annotations

import json

from spec_debug.session.metrics import scan_metrics
from tests.conftest import run_cli

# 60 characters after "800 tok/s" end between the "1" and the "6" of "bs=16".
READING = "EAGLE-3 throughput: 800 tok/s measured on gpu01 with the new drafter checkpoints, at bs=16 (same prompts)"

LOG = f"""$ python bench.py --no-spec --bs 1
baseline without speculation: 100 tok/s at bs=1
$ python bench.py --no-spec --bs 16
baseline without speculation: 900 tok/s at bs=16
$ python bench.py --eagle
{READING}
"""


def test_the_reading_is_paired_with_the_baseline_of_its_whole_batch_size(tmp_path):
    end = READING.index("tok/s") + len("tok/s")
    assert READING[end:end + 60].endswith("bs=1")  # the case: the window ends inside the word
    log = tmp_path / "bench.log"
    log.write_text(LOG)
    result = run_cli("analyze", str(log), "--format", "json")
    assert result.code == 0, result.stderr
    doc = json.loads(result.stdout)
    (reading,) = [m for m in doc["metrics"] if m["name"] == "throughput"]
    assert reading["context"].endswith("at bs=16"), reading["context"]
    (slow,) = [f for f in doc["findings"] if f["code"] == "SD501"]
    assert slow["evidence"] == ["[msg 2] 800 tok/s measured vs 900 tok/s baseline [msg 1]"]


def test_a_context_keeps_whole_words_at_both_ends_but_still_cuts_a_long_path():
    # 60 characters before the reading start inside "Llama": the context read "lama-3.1-70B...",
    # which names no model for pairing the reading with its model's baseline.
    text = "on Llama-3.1-70B-Instruct served with the EAGLE-3 draft: decode 61.5 tok/s for the model Qwen3-30B-A3B-FP8 here ok"
    (m,) = scan_metrics(text)
    assert m.context == text[len("on "):], m.context
    long_path = "/data/" + "x" * 120
    (m,) = scan_metrics(f"{long_path} decode 61.5 tok/s then {long_path}")
    assert len(m.context) <= 60 + len("decode 61.5 tok/s") + 1 + 60  # a word longer than the reach is cut
