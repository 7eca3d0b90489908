"""vLLM's offline speculative-decoding benchmark (vllm-project/vllm
examples/offline_inference/spec_decode.py, the script vLLM's EAGLE PRs measure with) ends with
`mean acceptance length: 2.44` (lower case) and `acceptance at token i: r` per position. Given as
the server log, its accept length was never read: the probe dropped the lines (no marker) and the
parser only knew `Accept length:` / `Acceptance length:` at a line start."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.probes import server_log

# The upstream script's printout, with the numbers vllm-project/vllm PR #24243 (MiniCPM3 EAGLE-3,
# 20 samples, single concurrency) reported: 8,914 drafts, 53,484 draft tokens, 12,814 accepted,
# mean acceptance length 2.44, acceptance at tokens 0-4: 0.57, 0.34, 0.21, 0.14, 0.10.
UPSTREAM = """\
Processed prompts: 100%|##########| 20/20 [00:13<00:00,  1.47it/s, est. speed input: 95.12 toks/s, output: 1600.40 toks/s]
--------------------------------------------------
total_num_output_tokens: 21690
num_drafts: 8914
num_draft_tokens: 53484
num_accepted_tokens: 12814
mean acceptance length: 2.44
--------------------------------------------------
acceptance at token 0: 0.57
acceptance at token 1: 0.34
acceptance at token 2: 0.21
acceptance at token 3: 0.14
acceptance at token 4: 0.10
acceptance at token 5: 0.08
"""
# The PR's own copy of the script prints them capitalised (https://github.com/vllm-project/vllm/pull/24243)
PR_COPY = """\
Total output tokens: 21,690
Number of draft proposals: 8,914
Number of draft tokens generated: 53,484
Number of accepted tokens: 12,814
Mean acceptance length: 2.44

Acceptance rate at token 0: 0.57
Acceptance rate at token 1: 0.34
Acceptance rate at token 2: 0.21
Acceptance rate at token 3: 0.14
Acceptance rate at token 4: 0.10
"""


def test_the_offline_benchmark_output_gives_the_accept_length_through_the_probe(tmp_path):
    out = tmp_path / "spec_decode.out"
    out.write_text(UPSTREAM)
    kept = server_log.run({"server_log": str(out)})["lines"]
    stats = parse_server_log("\n".join(kept))
    assert stats.accept_length == 2.44
    assert stats.per_position_acceptance == [0.57, 0.34, 0.21, 0.14, 0.10, 0.08]
    assert (stats.accepted_tokens, stats.drafted_tokens) == (12814, 53484)
    # the counts agree with the printed length: 1 + accepted / drafts
    assert round(1 + 12814 / 8914, 2) == stats.accept_length


def test_the_capitalised_copy_is_read_too(tmp_path):
    out = tmp_path / "minicpm3.out"
    out.write_text(PR_COPY)
    stats = parse_server_log("\n".join(server_log.run({"server_log": str(out)})["lines"]))
    assert stats.accept_length == 2.44
    assert stats.per_position_acceptance == [0.57, 0.34, 0.21, 0.14, 0.10]


def test_a_vllm_metric_line_still_wins_over_nothing_and_is_not_taken_for_the_summary():
    # `Mean acceptance length` inside a SpecDecoding line is not a summary (not at the line start)
    line = ("INFO 10-30 12:01:00 [metrics.py:96] SpecDecoding metrics: Mean acceptance length: 3.00, Accepted: "
            "90 tokens, Drafted: 90 tokens, Per-position acceptance rate: 1.000, 1.000, Avg Draft acceptance rate: 100.0%")
    stats = parse_server_log(line)
    assert stats.bench == {} and stats.accept_length == 3.0
