"""The configs step on a draft config whose target_hidden_size is not the target's width (set
by hand, or copied with the config from another target): vLLM and SGLang size fc from it and
fail to load the draft, while the weights fit the target. Before: no finding."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.diagnose.steps import configs_step
from tests.diagnose.test_steps import context

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
DRAFT = json.loads((DEMO / "draft" / "config.json").read_text())
TARGET = json.loads((DEMO / "target" / "config.json").read_text())
SGLANG = {"engine": {"name": "sglang", "version": "0.5.12"}}


def _findings(draft: dict):
    facts = configs_step.parse({"draft": {"found": True, "config": draft},
                                "target": {"found": True, "config": TARGET}})
    return configs_step.check(context(facts, SGLANG))


def _width_lines(found) -> list[str]:
    return [line for f in found if f.code == "SD204" for line in f.evidence]


def test_a_stated_target_hidden_size_other_than_the_targets_is_sd204():
    width = TARGET.get("hidden_size") or TARGET["text_config"]["hidden_size"]
    assert not any("target_hidden_size" in line for line in _width_lines(_findings(DRAFT)))
    wrong = {**DRAFT, "target_hidden_size": width * 2}
    lines = _width_lines(_findings(wrong))
    assert any(f"the draft config's target_hidden_size is {width * 2}, the target's hidden_size "
               f"{width}" in line and f"set target_hidden_size to {width}" in line
               for line in lines), lines


def test_a_null_or_matching_target_hidden_size_adds_nothing():
    width = TARGET.get("hidden_size") or TARGET["text_config"]["hidden_size"]
    for value in (None, width):
        assert not any("target_hidden_size" in line
                       for line in _width_lines(_findings({**DRAFT, "target_hidden_size": value})))
