"""Postmortem of a session that read a vLLM server's stats log while one request ran ("Avg
generation throughput: 85.3 tokens/s, Running: 1 reqs"), then ran `vllm bench serve
--max-concurrency 32`: the Impact said throughput "went from 85.3 to 1100.5 tok/s" and the
acceptance rows went from 2.1 to 1.61 tokens, all one load apart. SGLang's Decode batch lines
already gave their readings the batch size they ran at; vLLM's stats lines did not, so their
readings met any row. Now they say ", batch size N" when every busy line ran N requests, and
readings at another batch size are not compared."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.bash_session import write_bash_session

_STATS = ("INFO 03-02 08:1{i}:00 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
          "throughput: {g} tokens/s, Running: {r} reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, Prefix cache hit "
          "rate: 0.0%\nINFO 03-02 08:1{i}:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 2.10, "
          "Accepted throughput: 40.1 tokens/s, Drafted throughput: 60.0 tokens/s, Accepted: 401 tokens, Drafted: 600 "
          "tokens, Per-position acceptance rate: 0.800, 0.500, 0.300, Avg Draft acceptance rate: 66.8%")
_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     200\n"
          "Maximum request concurrency:             32\nOutput token throughput (tok/s):         1100.5\n"
          "---------------Speculative Decoding---------------\nAcceptance rate (%):                     40.25\n"
          "Acceptance length:                       1.61\n==================================================")
_RUN = ("ssh gpu01 'vllm bench serve --model /models/Llama-3.1-8B-Instruct --num-prompts 200 --max-concurrency 32'",
        _BENCH)


def _analysis(tmp_path: Path, log: str):
    runs = [("ssh gpu01 'tail -n 4 /var/log/vllm.log'", log), _RUN]
    return analyze_path(write_bash_session(tmp_path, "s", "EAGLE-3 on gpu01 is slow, please look.", runs))


def test_a_log_read_at_one_request_is_not_compared_with_a_benchmark_at_32(tmp_path: Path) -> None:
    analysis = _analysis(tmp_path, "\n".join(_STATS.format(i=i, g="85.3", r=1) for i in range(2)))
    assert [(m.name, m.context) for m in analysis.metrics if m.seq == 2] == [
        ("throughput", "vLLM generation stats, mean of 2 lines, batch size 1"),
        ("accept_length", "vLLM SpecDecoding stats, mean of 2 lines, weighted by their drafts, batch size 1"),
        ("accept_rate", "vLLM SpecDecoding stats, mean of 2 lines, weighted by their drafts, batch size 1")]
    impact = postmortem_view(analysis)["impact"]
    for name, after, before in (("throughput", 1100.5, 85.3), ("accept_length", 1.61, 2.1), ("accept_rate", 40.25, 66.83)):
        row = impact[name]
        assert (row["before"], row["after"], row["readings"], row["other_loads"]) == \
            (after, after, 1, [{"value": before, "seq": 2, "unit": row["unit"]}]), name


def test_lines_at_different_counts_state_no_batch_size(tmp_path: Path) -> None:
    # a batch that grew from 1 to 4 requests: no one row, compared as before
    analysis = _analysis(tmp_path, _STATS.format(i=0, g="85.3", r=1) + "\n" + _STATS.format(i=1, g="95.3", r=4))
    assert [m.context for m in analysis.metrics if m.seq == 2 and m.name == "throughput"] == [
        "vLLM generation stats, mean of 2 lines"]
    row = postmortem_view(analysis)["impact"]["throughput"]
    assert (row["before"], row["after"], row["readings"]) == (90.3, 1100.5, 2)
