"""A SGLang `Decode batch` line with a negative gen throughput (`gen throughput (token/s):
-3.00`: no decode rate is negative; a clock step between two log intervals or a corrupted line)
was read as a measured rate: the log's median became -3.0 tok/s and SD501 said the server runs
at -0.03x of its baseline. Such values are left out now, counted, and said in a note."""

from __future__ import annotations

from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.test_hardening62_payoff_steps import DECODE
from tests.diagnose.test_throughput_served_settings import STARTUP


def _check(rates: list[float]) -> tuple[dict, list]:
    lines = [STARTUP] + [DECODE.format(i=i, tok_s=rate) for i, rate in enumerate(rates)]
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": {}, **facts})
    return facts["throughput"], throughput_step.check(ctx)


def test_negative_gen_throughput_lines_are_left_out_and_said():
    stats = parse_server_log("\n".join(DECODE.format(i=i, tok_s=rate)
                                       for i, rate in enumerate([-3.0, 120.0, 118.0])))
    assert stats.gen_tok_s_median == 119.0 and stats.gen_tok_s_mean == 119.0
    assert stats.negative_gen_tok_s == [-3.0] and stats.negative_gen_tok_s_lines == 1
    # the line's accept length is still read: only the rate is impossible
    assert stats.accept_length_mean == 1.5 and stats.decode_lines == 3


def test_a_log_of_negative_rates_only_is_no_sd501():
    facts, found = _check([-3.0, -3.0, -3.0])
    assert facts["measured_tok_s"] is None and facts["log"]["gen_tok_s_median"] is None
    assert [f for f in found if f.code == "SD501"] == [], found
    said = [line for f in found for line in [f.title, *f.evidence]
            if "negative gen throughput" in line]
    assert said and "3 Decode batch line(s)" in said[0] and "-3" in said[0], found


def test_a_mostly_sound_log_is_measured_on_its_sound_lines():
    facts, found = _check([-3.0, 50.0, 50.0])
    assert facts["measured_tok_s"] == 50.0
    [sd501] = [f for f in found if f.code == "SD501"]
    assert "0.56x" in " ".join(sd501.evidence), sd501.evidence


def test_the_left_out_lines_are_said_beside_the_measured_throughput():
    _, found = _check([-3.0, 50.0, 50.0])
    said = [line for f in found for line in [f.title, *f.evidence] if "negative gen throughput" in line]
    assert said and said[0].startswith("measured 50.0 tok/s with speculation (median of 3 decode lines in "
                                       "the server log; 1 Decode batch line(s) of the server log give a negative gen "
                                       "throughput (-3 tok/s)"), [f.evidence for f in found]
