""""tps" is how people write tokens per second in issues and chats; a session that compared its
runs so gave no reading at all. The comment below is sgl-project/sglang issue #6949's
(2025-06-07), verbatim."""

from __future__ import annotations

from spec_debug.session.metrics import extract_metrics

ISSUE_6949 = "tp = 1\nwith eagle: 30 tps\nwithout eagle: 21 tps\ntp = 4\nwith eagle: 59 tps\nwithout eagle: 61 tps"


def test_tps_is_tokens_per_second_and_without_eagle_is_the_baseline() -> None:
    found = [(m.name, m.value, m.unit) for m in extract_metrics(ISSUE_6949)]
    assert found == [("throughput", 30.0, "tok/s"), ("baseline_throughput", 21.0, "tok/s"),
                     ("throughput", 59.0, "tok/s"), ("baseline_throughput", 61.0, "tok/s")]


def test_the_tps_inside_https_is_no_unit() -> None:
    assert extract_metrics("see https://github.com/sgl-project/sglang/issues/6949 for 2 runs") == []
