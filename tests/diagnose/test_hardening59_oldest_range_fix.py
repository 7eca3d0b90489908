"""find_layer_fix searches the release ranges below the running one for a config that serves the
trained ids, nearest first. The range before the table's first boundary was asked at version
"0", which engines.parse_version reads as the newest (0.0 is a source tree without version
metadata, vllm/version.py), so the oldest range was searched with the newest rules: harmless
while no oldest range reads a config key (SGLang before 0.4.9, vLLM before 0.11.1), wrong for
any fix found there once one does. Each range is now asked at a release inside it, over the real
convention table (spec_debug/eagle3/engines.py)."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.layers import OLDEST_RELEASE, older_ranges
from spec_debug.eagle3 import engines


def _inside(version: str, lo: str | None, hi: str) -> bool:
    parsed = engines.parse_version(version)
    return (lo is None or parsed >= engines.parse_version(lo)) and parsed < engines.parse_version(hi)


@pytest.mark.parametrize("engine,running", [("sglang", "0.5.12"), ("sglang", None), ("vllm", "0.22.0"),
                                            ("vllm", "latest")])
def test_each_older_range_is_asked_at_a_release_inside_it(engine, running):
    ranges = older_ranges(engine, running)
    assert ranges and ranges[-1][0] is None  # the oldest range, last
    for lo, hi, probe in ranges:
        assert _inside(probe, lo, hi), (lo, hi, probe)


@pytest.mark.parametrize("engine,first_keys", [("sglang", "0.4.9"), ("vllm", "0.11.1")])
def test_the_oldest_range_gets_its_own_rules_not_the_newest(engine, first_keys):
    # before these releases neither engine read layer ids from the draft config at all
    assert engines.parse_version("0") == engines.parse_version(None)  # why "0" would not do
    *_, (lo, hi, probe) = older_ranges(engine, None)
    assert probe == OLDEST_RELEASE and engines.convention(engine, "config_keys", probe) == ()
    assert engines.convention(engine, "config_keys", None) != ()
    assert engines.parse_version(probe) < engines.parse_version(first_keys)
