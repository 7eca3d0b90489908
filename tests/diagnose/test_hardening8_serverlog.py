"""Hardening 8: server logs where acceptance collapses part of the time.

Each test is a user story spec-debug got wrong before; the source of every input is cited.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.serverlog import parse_server_log

# vllm-project/vllm vllm/v1/spec_decode/metrics.py `SpecDecodingLogging.log`: one line per
# logging interval, AL = 1 + accepted / num_drafts. The first line is the one quoted in
# https://github.com/vllm-project/vllm/pull/24127 (K = 5: 295 drafted tokens are 59 drafts,
# 262 accepted / 59 = 4.44 + 1 = 5.44).
GOOD = ("(APIServer pid=2236552) INFO 09-09 11:51:35 [metrics.py:96] SpecDecoding metrics: Draft "
        "acceptance rate: 88.8%, Mean acceptance length: 5.44, Accepted throughput: 4.37 tokens/s, "
        "Drafted throughput: 4.92 tokens/s, Accepted: 262 tokens, Drafted: 295 tokens, Per-position "
        "acceptance rate: 0.983, 0.949, 0.915, 0.881, 0.712\n")
# The same server once prompts outgrow the draft's context (EAGLE3.md section 6, failure 8:
# sgl-project/sglang issue 6783, vllm-project/vllm issue 48894): every draft is rejected, and vLLM
# logs AL 1.00 with nothing accepted. 59 drafts again (295 tokens, K = 5).
COLLAPSED = ("(APIServer pid=2236552) INFO 09-09 11:52:35 [metrics.py:96] SpecDecoding metrics: Mean "
             "acceptance length: 1.00, Accepted throughput: 0.00 tokens/s, Drafted throughput: 4.92 tokens/s, "
             "Accepted: 0 tokens, Drafted: 295 tokens, Per-position acceptance rate: 0.000, 0.000, 0.000, "
             "0.000, 0.000, Avg Draft acceptance rate: 0.0%\n")


def test_an_interval_that_accepted_nothing_counts_for_its_drafts():
    s = parse_server_log(GOOD + COLLAPSED)
    # 59 drafts at 5.44 and 59 drafts at 1.00: the server accepted 262 tokens in 118 drafts
    assert s.accept_length_mean == pytest.approx(1 + 262 / 118, abs=0.01)
    assert s.per_position_acceptance[0] == pytest.approx(0.983 / 2, abs=1e-3)
    assert (s.accepted_tokens, s.drafted_tokens) == (262, 590)
    # a log of collapsed intervals alone is AL 1
    assert parse_server_log(COLLAPSED * 3).accept_length_mean == 1.0


def test_without_per_position_rates_the_tokens_per_draft_come_from_the_other_lines():
    # SpecDecoding lines as vLLM V1 logged them before it added the per-position rates (the
    # format of https://github.com/vllm-project/vllm/pull/15902 plus the mean acceptance length)
    old = "SpecDecoding metrics: Draft acceptance rate: {rate}%, Mean acceptance length: {al}, Accepted: {acc} tokens, Drafted: {dr} tokens\n"
    log = old.format(rate=88.8, al=5.44, acc=262, dr=295) + old.format(rate=0.0, al="1.00", acc=0, dr=295)
    assert parse_server_log(log).accept_length_mean == pytest.approx(1 + 262 / 118, abs=0.01)
