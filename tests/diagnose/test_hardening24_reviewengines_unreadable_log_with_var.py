"""throughput step: a server log that cannot be read is said even when the throughput comes
from --var measured_tok_s (review of round 24).

Round 24 made an unreadable log (a root-owned /var/log file, a damaged .gz) one reason, but
only in place of the missing measured throughput. With `--var measured_tok_s=80 --var
server_log=/var/log/sglang.log` the log was the only source of the observed accept length
(SD502) and the served settings, and its being unreadable went unsaid: the run looked checked."""

from __future__ import annotations

from spec_debug.diagnose.steps import throughput_step
from spec_debug.probes.registry import ProbeContext

LOG = "/var/log/sglang/server.log"


def _codes_and_text(host: dict) -> tuple[list[str], str]:
    facts = throughput_step.parse(host)
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    findings = throughput_step.check(ctx)
    return [f.code for f in findings], " ".join(f.title + " " + " ".join(f.evidence) for f in findings)


def test_an_unreadable_log_beside_a_measured_var_is_said():
    host = {"args": {"baseline_tok_s": "90", "measured_tok_s": "80", "server_log": LOG}, "found": False,
            "path": LOG, "lines": [], "unreadable": f"{LOG} cannot be read: Permission denied"}
    codes, text = _codes_and_text(host)
    assert sorted(codes) == ["SD004", "SD501"]
    assert f"{LOG} cannot be read: Permission denied: the accept length it logs is not compared" in text


def test_a_readable_or_absent_log_adds_nothing():
    host = {"args": {"baseline_tok_s": "90", "measured_tok_s": "80"}, "found": False, "lines": []}
    assert _codes_and_text(host)[0] == ["SD501"]
