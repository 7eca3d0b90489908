"""Readings in coloured output are read as the plain text's.

A tool run with colours forced (FORCE_COLOR, ``script``, ``docker logs`` of a TTY container,
rich/loguru wrappers) writes ECMA-48 colour sequences around words and numbers. The error
scan already read through them (failures.extract_errors); the metric scan did not:
"\\x1b[32mOutput token throughput (tok/s):  2074.56\\x1b[0m" matched no bench_serving line and
"accept len: \\x1b[33m1.67\\x1b[0m" no Decode batch reading, so a coloured benchmark lost its
throughput and accept length while the same output without colours kept both.
"""

from __future__ import annotations

import re
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.metrics import scan_metrics
from tests.session.bash_session import write_bash_session

E = "\x1b"
BENCH = (f"{E}[1m============ Serving Benchmark Result ============{E}[0m\n"
         f"{E}[32mOutput token throughput (tok/s):         2074.56{E}[0m\n"
         f"{E}[32mAccept length:                           3.12{E}[0m\n"
         f"Mean TTFT (ms):                          {E}[1;33m120.50{E}[0m\n")
DECODE = (f"{E}[2m[2026-01-01 10:00:00]{E}[0m Decode batch, #running-req: 1, #token: 1234, token usage: 0.01, "
          f"accept len: {E}[33m1.67{E}[0m, accept rate: 0.42, cuda graph: True, gen throughput (token/s): 54.8, "
          f"#queue-req: 0\n")


def _readings(text: str) -> list[tuple[str, float]]:
    return sorted((m.name, m.value) for m in scan_metrics(text))


def _plain(text: str) -> str:
    return re.sub(r"\x1b\[[0-9;]*m", "", text)


def test_coloured_bench_serving_lines_are_read_as_the_plain_ones():
    assert _readings(BENCH) == _readings(_plain(BENCH)) == [
        ("accept_length", 3.12), ("throughput", 2074.56), ("ttft_mean", 120.5)]


def test_a_coloured_accept_len_is_read():
    assert _readings(DECODE) == _readings(_plain(DECODE)) == [
        ("accept_length", 1.67), ("accept_rate", 0.42), ("throughput", 54.8)]


def test_the_reading_context_has_no_colour_codes():
    assert all("\x1b" not in m.context for m in scan_metrics(BENCH + DECODE))


def test_a_session_with_coloured_output_keeps_its_readings(tmp_path: Path):
    path = write_bash_session(tmp_path, "5b0e6a52-8f1d-4c3b-a2e9-7d4c1f0b9e63", "benchmark eagle3 on gpu01",
                              [("ssh gpu01 'FORCE_COLOR=1 python -m sglang.bench_serving'", BENCH),
                               ("ssh gpu01 'tail -n 1 /tmp/server.log'", DECODE)])
    got = sorted((m.name, m.value) for m in analyze_path(path).metrics if m.name in ("throughput", "accept_length"))
    assert got == [("accept_length", 1.67), ("accept_length", 3.12), ("throughput", 54.8), ("throughput", 2074.56)]
