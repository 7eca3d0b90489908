"""The hidden_layout probe given training hidden states and a target_model it cannot read (a
typo, a Hub id with no snapshot in the local cache): the layout probe raised, the whole step
failed as one SD003 warning, and the engine's conventions table and serve plan, which need no
target, were lost with it. The table and plan are now kept and the step says SD003 naming the
target. The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

SGLANG = {"engine": {"name": "sglang", "version": "0.5.12"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    return save_informative_world(tmp_path_factory.mktemp("h57-layout-target"), seed=1)


def _step(world, target):
    out = hidden_layout.run({"draft_model": str(world / "draft"), "target_model": target,
                             "hidden_states": str(world / "data"), "engine": "sglang",
                             "engine_version": "0.5.12"})
    facts = layout_step.parse(out)
    return out, facts, layout_step.check(context(facts, SGLANG))


def test_a_target_typo_keeps_the_conventions_table(world, monkeypatch):
    typo = str(world / "target-typo")
    out, facts, findings = _step(world, typo)
    assert out["conventions"] and facts["layout"]["conventions"], out
    [line] = [f for f in findings if f.code == "SD003"]
    assert f"{typo}: target checkpoint directory not found" in line.evidence[0], line.evidence
    assert line.evidence[0].startswith("layout probe not run: ")
    assert not [f for f in findings if "--var hidden_states" in (f.facts or {}).get("provide", "")], findings


def test_a_hub_id_not_in_the_cache_is_named_with_its_hint(world, monkeypatch, tmp_path):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    out, facts, findings = _step(world, "RedHatAI/Llama-3.1-8B-Instruct")
    assert facts["layout"]["conventions"]
    [line] = [f for f in findings if f.code == "SD003"]
    assert "RedHatAI/Llama-3.1-8B-Instruct: no local directory of that name" in line.evidence[0]
    assert "huggingface-cli download RedHatAI/Llama-3.1-8B-Instruct" in line.remediation


def test_a_readable_target_still_ranks_the_layouts(world):
    out, _, findings = _step(world, str(world / "target"))
    assert out["layout"]["ranked"] and "layout_error" not in out
    assert not [f for f in findings if f.code == "SD003"]
