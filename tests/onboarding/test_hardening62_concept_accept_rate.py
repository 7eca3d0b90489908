"""`spec-debug explain accept rate` (an alias of the concept "accept length") described the accept
length alone: "1.0 means speculation added nothing". An engineer reading SGLang's `accept rate:
0.54` or vLLM's `Draft acceptance rate: 69.2%` and asking what it is was told about another
quantity, and 0.54 read against 1.0 looked like speculation losing. The concept now says an
accept rate is a fraction and how each engine's relates to the accept length, with the numbers
of the SGLang log line spec-debug's own server-log reader is tested on."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from tests.conftest import run_cli

SGLANG_LINE = ("[2025-10-22 06:12:41] Decode batch. #running-req: 1, #token: 108, token usage: 0.00, "
               "accept len: 2.17, accept rate: 0.54, cuda graph: True, gen throughput (token/s): 178.86, "
               "#queue-req: 0,\n")


def test_accept_rate_is_said_to_be_a_fraction() -> None:
    text = " ".join(run_cli("explain", "accept rate").stdout.split())
    assert text.startswith("# accept length")
    assert "An accept rate is a fraction, not this length: SGLang's `accept rate` is accept length / (steps + 1)" in text
    assert "vLLM's `Draft acceptance rate` is accepted / drafted tokens" in text


def test_the_numbers_quoted_are_the_logs() -> None:
    stats = parse_server_log(SGLANG_LINE)
    assert stats.accept_rate_mean == 0.54
    assert round(stats.accept_length_mean / (3 + 1), 2) == stats.accept_rate_mean
