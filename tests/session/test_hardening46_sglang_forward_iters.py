"""SGLang's Decode and Prefill batch lines with the forward counter in them.

Since SGLANG_LOG_FORWARD_ITERS (sgl-project/sglang python/sglang/srt/managers/
scheduler_metrics_mixin.py @ 01bb3c80: ``iter_msg = f" [{self.forward_ct}]" if LOG_FORWARD_ITERS``)
a server logs "Decode batch [1840], #running-req: 8, ..." and "Prefill batch [1839], #new-seq: 1,
...". The readings were still found, but the running-request count beside them was not: the first
line after an idle spell (its "gen throughput" divided by the idle time too) was averaged in, and a
DP-attention server's idle rank was summed as if busy; a disaggregated prefill server's input
throughput was not read at all."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics


def _line(it: int, running: int, tput: float, rank: str = "TP0") -> str:
    return (f"[2026-01-10 08:15:{it % 60:02d} {rank}] Decode batch [{it}], #running-req: {running}, #token: 2640, "
            f"token usage: 0.02, accept len: 2.91, accept rate: 0.48, cuda graph: True, "
            f"gen throughput (token/s): {tput:.2f}, #queue-req: 0, \n")


def _readings(text: str, name: str) -> list[tuple[float, str]]:
    return [(m.value, m.context) for m in extract_metrics(text) if m.name == name]


def test_the_line_after_an_idle_spell_is_left_out_with_the_counter_in_the_line() -> None:
    # one request alone: 0.39 tok/s is the idle minute before it, not its decode speed (#11948)
    text = _line(40, 1, 0.39) + _line(80, 1, 180.0) + _line(120, 1, 190.0)
    assert _readings(text, "throughput") == [
        (185.0, "SGLang Decode batch, mean of 2 of 3 lines (1 after an idle spell left out)")]


def test_dp_ranks_are_summed_with_each_rank_s_own_requests() -> None:
    # rank 1 went from 32 requests to 1: its 40 tok/s for one request is no idle spell
    text = (_line(40, 32, 1600.0, "DP0 TP0") + _line(40, 32, 1500.0, "DP1 TP1")
            + _line(80, 32, 1640.0, "DP0 TP0") + _line(80, 1, 60.0, "DP1 TP1"))
    [(value, context)] = _readings(text, "throughput")
    assert (value, context) == (1620.0 + 780.0, "SGLang Decode batch, sum over 2 DP ranks of each rank's mean (4 lines)")


def test_a_prefill_server_s_input_throughput_is_read() -> None:
    text = ("[2026-01-10 08:15:02 TP0] Prefill batch [1839], #new-seq: 4, #new-token: 8192, #cached-token: 0, "
            "token usage: 0.01, #running-req: 0, #queue-req: 0, #prealloc-req: 0, #inflight-req: 0, "
            "input throughput (token/s): 20431.52, \n")
    assert _readings(text, "prefill_throughput") == [(20431.52, "SGLang Prefill batch, mean of 1 line")]
