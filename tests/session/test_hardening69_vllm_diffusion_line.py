"""vLLM 0.34 serving a diffusion LM logs, after each interval's stat line, "DiffusionDecoding
metrics: Committed token throughput: C tokens/s, ..." (vllm/v1/spec_decode/metrics.py,
SpecDecodingLogging._log_diffusion): the same interval's generated tokens in other words.

Before: one server log gave two decode throughputs, the stat lines' mean and, read by the prose
scan, the committed line's C (two readings of one run, which a session's summary pairs as a
change). Now the committed line is cut with the other vLLM readings that are not decode speed."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

STAT = ("(APIServer pid=2100) INFO 12-06 09:20:{s:02d} [loggers.py:257] Engine 000: Avg prompt throughput: "
        "0.0 tokens/s, Avg generation throughput: {g} tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache "
        "usage: 3.1%, Prefix cache hit rate: 0.0%\n")
DIFFUSION = ("(APIServer pid=2100) INFO 12-06 09:20:{s:02d} [metrics.py:160] DiffusionDecoding metrics: Committed "
             "token throughput: {c} tokens/s, Mean denoising steps per canvas: 1.50, Mean tokens committed per "
             "denoising step: 3.20, Committed: 1802 tokens, Denoising steps: 563, Canvas positions evaluated: 2703\n")


def _throughputs(text: str) -> list[tuple[float, str]]:
    return [(m.value, m.context) for m in extract_metrics(text) if m.name == "throughput"]


def test_the_committed_throughput_is_no_second_reading() -> None:
    log = (STAT.format(s=5, g="210.5") + DIFFUSION.format(s=5, c="180.20")
           + STAT.format(s=15, g="230.5") + DIFFUSION.format(s=15, c="1,210.75"))
    assert _throughputs(log) == [(220.5, "vLLM generation stats, mean of 2 lines, batch size 8")]


def test_the_committed_line_alone_is_still_read() -> None:
    # (a grep of the diffusion lines only: no stat line says the speed, this one does)
    (reading,) = _throughputs(DIFFUSION.format(s=5, c="180.20"))
    assert reading[0] == 180.2
