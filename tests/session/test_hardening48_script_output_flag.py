"""distill: a script told where to write its output changes the host.

The session regenerated the draft's vocab map with ``~/venv/bin/python /tmp/regen_vocab_map.py
--checkpoint /models/r2 --token-freq ... --out /models/r2-vocabfix``; the first try failed on a
wrong path and so prompted a change of approach, and distill kept it as a read-only step: the
on-call running the playbook against production would write a checkpoint under /models. A
program's output option (``--out``, ``--output-dir``, ``--save-path`` ...) naming
a place outside the scratch folders is a write, as ``> file`` and ``tee file`` are.
"""

from __future__ import annotations

import pytest

from spec_debug.session.host_changes import changes_host

SCRIPT = "~/venv/bin/python /tmp/regen_vocab_map.py --checkpoint /models/r2 --token-freq /data/freq.pt"


@pytest.mark.parametrize(("command", "why"), [
    (f"{SCRIPT} --out /models/r2-vocabfix", "writes /models/r2-vocabfix"),
    (f"{SCRIPT} --out-dir=/models/r2-vocabfix", "writes /models/r2-vocabfix"),
    ("python export.py --output-dir ckpt/eagle3", "writes ckpt/eagle3"),
    ("torchrun --nproc-per-node 8 train.py --save_path /data/drafts/r3", "writes /data/drafts/r3"),
])
def test_an_output_option_outside_scratch_is_a_write(command, why):
    assert changes_host(command) == why


@pytest.mark.parametrize("command", [
    f"{SCRIPT} --out /tmp/r2-vocabfix",
    "python -m sglang.bench_serving --backend sglang --output-file /tmp/bench.jsonl",
    "python check_d2t.py --checkpoint /models/r2",
    "nvidia-smi --query-gpu=name --format=csv",
])
def test_reading_or_writing_scratch_is_no_change(command):
    assert changes_host(command) is None


def test_result_files_of_benchmarks_and_evaluations_stay_readers():
    # bench_serving's --output-file and lm_eval's --output_path are the run's results, not a change
    assert changes_host("python -m sglang.bench_serving --backend sglang --output-file results.jsonl") is None
    assert changes_host("lm_eval --model local-completions --tasks gsm8k --output_path results/") is None
