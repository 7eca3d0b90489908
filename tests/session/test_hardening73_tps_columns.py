"""Table columns headed by the unit as people and scripts spell it: "TPS", "decode tps", a results
dict's key "tokens_per_second" or "output_tok_s". Before, only "tok/s", "tokens/s" or
"throughput" made a throughput column, so "| model | TPS |" over a baseline and an EAGLE-3 row
gave no reading at all. Now these columns are throughputs (the baseline row's the baseline);
"prefill_tps" and "total_tokens_per_second" are still no decode speed."""

from spec_debug.session.metric_tables import _header_kind
from spec_debug.session.metrics import extract_metrics


def test_tps_column_gives_baseline_and_eagle_throughputs():
    text = "| model | TPS |\n|---|---|\n| baseline | 40.2 |\n| eagle3 | 88.1 |\n"
    assert [(m.name, m.value, m.context) for m in extract_metrics(text, prose=True)] == [
        ("baseline_throughput", 40.2, "table: TPS | baseline: 40.2"),
        ("throughput", 88.1, "table: TPS | eagle3: 88.1")]


def test_script_keys_as_headers():
    text = "| run | tokens_per_second | acceptance_rate |\n|---|---|---|\n| eagle3 | 88.1 | 0.62 |\n"
    assert [(m.name, m.value) for m in extract_metrics(text)] == [("throughput", 88.1), ("accept_rate", 0.62)]
    assert [_header_kind(h) for h in ("output_tok_s", "decode tps", "**TPS**", "gen_tps")] == ["throughput"] * 4


def test_other_quantities_stay_unread():
    assert [_header_kind(h) for h in ("prefill_tps", "total_tokens_per_second", "tps_ratio", "tokens", "tok_stats")] \
        == [None, None, None, None, None]
