"""analyze: vLLM V0's "Speculative metrics" lines are running totals; the last one is the run's.

vLLM V0's rejection sampler adds each step's accepted, emitted and draft tokens to counters it
never resets, and AsyncMetricsCollector logs those totals (vllm/spec_decode/metrics.py,
vllm/model_executor/layers/rejection_sampler.py: ``self.num_draft_tokens += batch_size * k``):
each line's rate and counts are the server's so far. The analyzer took the mean of the lines, so a
first line logged after a few warm-up requests weighed as much as the totals of the hours after
it: two lines 0.400 then 0.650 (over 100 and then 6000 draft tokens) read 0.525, not 0.650. It now
reads the last line's totals (the diagnose side's serverlog reads them so already), and where the
totals fall (a restarted server) the last line of each run, weighed by its drafts.
"""

from spec_debug.session.metrics import extract_metrics

P = "INFO 01-10 12:{} metrics.py:455] Speculative metrics: "


def _line(at: str, rate: str, eff: str, k: int, accepted: int, drafted: int, emitted: int) -> str:
    return (P.format(at) + f"Draft acceptance rate: {rate}, System efficiency: {eff}, Number of speculative "
            f"tokens: {k}, Number of accepted tokens: {accepted}, Number of draft tokens: {drafted}, Number of "
            f"emitted tokens: {emitted}.\n")


WARMUP_THEN_HOURS = (_line("00:05", "0.400", "0.350", 4, 40, 100, 35)
                     + _line("30:05", "0.650", "0.560", 4, 3900, 6000, 4200))


def _readings(text):
    return [(m.name, m.value, m.unit) for m in extract_metrics(text)]


def test_the_last_line_holds_the_runs_totals():
    # 4200 emitted over 6000 / 4 = 1500 verify steps; 3900 / 6000 accepted
    assert _readings(WARMUP_THEN_HOURS) == [("accept_length", 2.8, "tokens"), ("accept_rate", 0.65, "ratio")]
    [length, rate] = extract_metrics(WARMUP_THEN_HOURS)
    assert length.context == rate.context == "vLLM Speculative metrics stats, running totals of the last of 2 lines"


def test_one_line_reads_as_before():
    one = _line("00:05", "0.617", "0.513", 3, 1234, 2000, 1500)
    assert _readings(one) == [("accept_length", 2.25, "tokens"), ("accept_rate", 0.617, "ratio")]


def test_a_restarted_server_counts_each_runs_last_line_by_its_drafts():
    restarted = (WARMUP_THEN_HOURS
                 + _line("45:00", "0.500", "0.400", 4, 50, 100, 50)
                 + _line("50:00", "0.500", "0.400", 4, 1000, 2000, 1000))
    # (4200 + 1000) emitted over (6000 + 2000) / 4 steps; (3900 + 1000) / 8000 accepted
    assert _readings(restarted) == [("accept_length", 2.6, "tokens"), ("accept_rate", 0.613, "ratio")]
    assert extract_metrics(restarted)[0].context == \
        "vLLM Speculative metrics stats, running totals of the last line of each of 2 runs (4 lines)"
