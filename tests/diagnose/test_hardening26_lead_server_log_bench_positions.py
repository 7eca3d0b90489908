"""The server-log probe ships `vllm bench serve`'s Speculative Decoding counts and its
per-position block to the reader (spec_debug.diagnose.serverlog reads them since 9eac089):
the probe keeps only lines with a marker, and these had none, so on a host the rates and
counts never arrived. Other lines that merely say "Position" stay behind."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.probes import server_log
from tests.diagnose.test_hardening26_reviewlaunch_bench_serve_positions import SUMMARY


def test_bench_serve_positions_and_counts_travel_from_the_host(tmp_path):
    log = tmp_path / "bench.log"
    noise = "INFO 12-01 10:00:00 Position embeddings: rotary, max 32768\n"
    log.write_text(noise * 50 + SUMMARY + noise * 50)
    shipped = server_log.run({"server_log": str(log)})
    assert shipped["found"]
    assert not any("Position embeddings" in line for line in shipped["lines"])
    stats = parse_server_log("\n".join(shipped["lines"]) + "\n")
    assert stats.per_position_acceptance == [0.8342, 0.7291, 0.6407]
    assert (stats.accepted_tokens, stats.drafted_tokens) == (14090, 19179)
