"""SGLang Decode batch lines of several DP ranks, as SGLang prefixes them.

sgl-project/sglang python/sglang/srt/managers/scheduler.py (run_scheduler_process) builds the
logger's prefix " DP{dp_rank}", then " TP{tp_rank}" only when tp_size > 1: a 2-rank data-parallel
server of one GPU each logs "[... DP1] Decode batch", no TP after it. The ranks' sum (today's
fix) was only taken when " DP1 " stood in the log, so such a server was read at half its speed.
A rank whose batch shrank to one request (90 tok/s beside 3000 at 64 requests) was dropped as
idle, where the rest of the log is judged per running request: the rank read at 3000.
"""

from spec_debug.session.metrics import scan_metrics


def _line(rank, tput, running=18, tp=""):
    return (f"[2026-08-23 09:06:21 DP{rank}{tp}] Decode batch, #running-req: {running}, #token: 4000, "
            f"token usage: 0.10, accept len: 2.40, cuda graph: True, gen throughput (token/s): {tput}, #queue-req: 0\n")


def _throughput(text):
    return [m.value for m in scan_metrics(text) if m.name == "throughput"]


def test_dp_ranks_without_a_tp_rank_add_up():
    log = _line(0, 100.0) + _line(1, 120.0) + _line(0, 100.0) + _line(1, 120.0)
    assert _throughput(log) == [220.0]


def test_a_rank_whose_batch_shrank_is_not_idle():
    log = _line(0, 3000.0, 64, " TP0") + _line(1, 3000.0, 64, " TP1") \
        + _line(0, 90.0, 1, " TP0") + _line(1, 3000.0, 64, " TP1")
    assert _throughput(log) == [1545.0 + 3000.0]


def test_an_idle_spell_of_a_rank_is_still_left_out():
    log = _line(0, 3000.0, 64, " TP0") + _line(1, 3000.0, 64, " TP1") \
        + _line(0, 0.4, 1, " TP0") + _line(1, 3000.0, 64, " TP1")
    assert _throughput(log) == [6000.0]


def test_tp_ranks_of_one_dp_rank_are_not_added():
    assert _throughput(_line(0, 100.0, tp=" TP0") + _line(0, 100.0, tp=" TP1")) == [100.0]
