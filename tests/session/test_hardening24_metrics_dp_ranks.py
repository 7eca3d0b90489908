"""SGLang with data-parallel attention: each DP rank logs its own Decode batch lines.

"[2026-08-23 09:06:21 DP0 TP0 EP0] Decode batch, ..." and "[... DP1 TP1 EP1] Decode batch, ..."
are two schedulers' readings of their own requests; the server's throughput is their sum. The
mean over every line read a 2-rank server at half its speed (an 8-rank one at an eighth). The
accept length and rate stay means.
"""

from spec_debug.session.metrics import extract_metrics

LINE = ("[2026-08-23 09:06:{s} DP{r} TP{r} EP{r}] Decode batch, #running-req: {n}, #token: 16600, token usage: 0.02, "
        "accept len: {al}, accept rate: 0.70, cuda graph: True, gen throughput (token/s): {t}, #queue-req: 0\n")


def _log(rows):
    return "".join(LINE.format(s=s, r=r, n=n, al=al, t=t) for s, r, n, al, t in rows)


def _by_name(text):
    return {m.name: (m.value, m.context) for m in extract_metrics(text)}


def test_two_dp_ranks_add_up():
    got = _by_name(_log([(21, 0, 8, "3.10", "400.10"), (21, 1, 8, "3.30", "420.50"),
                         (25, 0, 8, "3.00", "390.00"), (25, 1, 8, "3.20", "410.00")]))
    assert got["throughput"][0] == 810.3
    assert "sum over 2 DP ranks" in got["throughput"][1]
    assert got["accept_length"][0] == 3.15


def test_a_ranks_idle_interval_is_left_out_of_its_mean():
    got = _by_name(_log([(21, 0, 1, "3.10", "0.39"), (22, 0, 1, "3.10", "180.00"),
                         (21, 1, 1, "3.30", "170.00"), (22, 1, 1, "3.20", "190.00")]))
    assert got["throughput"][0] == 360.0


def test_one_dp_rank_is_the_mean_as_before():
    got = _by_name(_log([(21, 0, 8, "3.10", "400.00"), (25, 0, 8, "3.00", "390.00")]))
    assert got["throughput"][0] == 395.0
