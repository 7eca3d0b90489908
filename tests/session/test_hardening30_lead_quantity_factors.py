"""Round 30 (lead, after the extract review): a latency or memory factor with "went up" / "went down"
between the quantity and the factor is that quantity's ratio, not a speedup. "TTFT went up 1.5x vs
baseline" read as a 1.5x speedup ("TTFT went 1.5x" was already none); a speed that went up stays one."""

from __future__ import annotations

import pytest

from spec_debug.session.metrics import extract_metrics


@pytest.mark.parametrize("text", ["TTFT went up 1.5x vs baseline", "memory went down 1.5x vs baseline",
                                  "p99 latency rose up 2x over baseline"])
def test_another_quantitys_factor_is_no_speedup(text: str) -> None:
    assert [m for m in extract_metrics(text) if m.name == "speedup"] == []


@pytest.mark.parametrize("text", ["throughput went up 1.5x vs baseline", "EAGLE-3 gives 1.5x over baseline here"])
def test_a_speed_that_went_up_is_still_one(text: str) -> None:
    assert [(m.name, m.value) for m in extract_metrics(text) if m.name == "speedup"] == [("speedup", 1.5)]
