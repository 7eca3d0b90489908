"""analyze: the accept length of a vLLM V0 speculative server, from its "Speculative metrics" line.

vLLM V0 (vllm/engine/metrics.py, _format_spec_decode_metrics_str) logs "Speculative metrics: Draft
acceptance rate: %.3f, System efficiency: %.3f, Number of speculative tokens: k, Number of
accepted tokens: A, Number of draft tokens: D, Number of emitted tokens: E." and no mean accept
length: a verify step drafts k tokens and emits the accepted ones plus one, so the length is
E / (D / k) (= System efficiency x (k + 1)). Before, only the rate was read, and a V0 session had
no accept length to compare with the SGLang and vLLM V1 ones.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

V0_LINES = ("INFO 08-01 10:00:00 metrics.py:467] Speculative metrics: Draft acceptance rate: 0.652, System "
            "efficiency: 0.541, Number of speculative tokens: 4, Number of accepted tokens: 3250, Number of draft "
            "tokens: 4984, Number of emitted tokens: 3367.\n"
            "INFO 08-01 10:00:05 metrics.py:467] Speculative metrics: Draft acceptance rate: 0.600, System "
            "efficiency: 0.520, Number of speculative tokens: 4, Number of accepted tokens: 6000, Number of draft "
            "tokens: 10000, Number of emitted tokens: 6500.\n")


def test_the_accept_length_of_a_v0_server(tmp_path):
    m = _Writer("9a1b0000-0000-4000-8000-00000000f139", None, datetime(2026, 3, 7, 9, 0, tzinfo=timezone.utc))
    m.prompt("The EAGLE draft on gpu08 (vLLM 0.6) barely speeds anything up.")
    m.bash("ssh gpu08 'grep \"Speculative metrics\" /var/log/vllm.log | tail -n 2'", V0_LINES)
    path = tmp_path / f"{m.session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    readings = [(r.name, r.value, r.unit, r.host) for r in analyze_path(path).metrics]
    # the counters are the server's running totals (hardening73): the last line's, 6500 * 4 / 10000
    # and 6000 / 10000 (was the mean of the two lines, 2.651 and 0.626)
    assert readings == [("accept_length", 2.6, "tokens", "gpu08"), ("accept_rate", 0.6, "ratio", "gpu08")]
