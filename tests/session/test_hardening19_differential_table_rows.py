"""A table row's label survives its batch-size column.

Found by running `analyze` before and after the hardening-19 table change (426cc34) on the
texts of the earlier tests: a row with a batch-size column was named by its batch size alone,
so the run's own label (vllm-project/vllm#24343's "fr-spec", a model's name) left the reading's
context, and with it the model the row names: a Qwen row was compared with Llama's baseline.
"""

from pathlib import Path

from spec_debug.session.analysis import analyze_path

# https://github.com/vllm-project/vllm/pull/24343 (eitanturok, 2025-09-14), the row as posted
FR_SPEC_ROW = ("Method | Batch Size | Num Spec Tokens | Mean Acceptance Length | Decode Throughput (toks/sec) "
               "| Total Time (sec)\n-- | -- | -- | -- | -- | --\n"
               "fr-spec | 1 | 1 | 1.63 | 108.45 | 207.10\n")

TWO_MODELS = """\
Without speculation Llama-3.1-8B-Instruct decodes at 150 tok/s at bs=1.
Without speculation Qwen3-8B decodes at 90 tok/s at bs=1.

| Model | Batch Size | Decode Throughput (tok/s) |
|---|---|---|
| Llama-3.1-8B-Instruct + EAGLE3 | 1 | 140 |
| Qwen3-8B + EAGLE3 | 1 | 120 |
"""


def _analyze(tmp_path: Path, text: str):
    path = tmp_path / "notes.txt"
    path.write_text(text, encoding="utf-8")
    return analyze_path(path, "text")


def test_a_runs_label_beside_a_batch_size_column_stays_in_its_readings_context(tmp_path):
    a = _analyze(tmp_path, FR_SPEC_ROW)
    contexts = {m.name: m.context for m in a.metrics}
    # was "table: Decode Throughput (toks/sec) | 1: 108.45": which run read 108.45 tok/s was lost
    assert contexts["throughput"] == "table: Decode Throughput (toks/sec) | fr-spec bs=1: 108.45"
    assert contexts["accept_length"] == "table: Mean Acceptance Length | fr-spec bs=1: 1.63"


def test_each_models_row_is_compared_with_that_models_baseline_of_its_batch_size(tmp_path):
    a = _analyze(tmp_path, TWO_MODELS)
    evidence = [line for f in a.findings if f.code == "SD501" for line in f.evidence]
    # Llama's EAGLE3 run is slower than Llama without speculation; Qwen's is faster than Qwen's
    # (was also "120 tok/s measured vs 150 tok/s baseline": Qwen against Llama's baseline)
    assert evidence == ["[msg 0] 140 tok/s measured vs 150 tok/s baseline"]
