"""The hidden_layout probe given training hidden states, a serving-path dump and a target_model
that is no checkpoint here (a typo): the layout step said the target twice, an SD003 ("layout
probe not run: ...target-typo: target checkpoint directory not found") and an SD004 ("served
layers not measured: ... could not be loaded: ...target-typo: target checkpoint directory not
found"). One cause is now one finding: the SD003 says the serving dump was not scored either.
A serving dump scored with a checkpoint the training layout did read keeps its own line. The
world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from safetensors.torch import load_file, save_file

    root = save_informative_world(tmp_path_factory.mktemp("h57-one-target-error"), seed=1)
    named = root / "named"
    named.mkdir()
    for path in sorted((root / "data").glob("hs_*.safetensors")):  # a dump that names its layers
        save_file(load_file(str(path)), str(named / path.name), metadata={"layer_ids": json.dumps([2, 4, 5, 8])})
    return root


def _findings(world, target):
    out = hidden_layout.run({"draft_model": str(world / "draft"), "target_model": str(world / target),
                             "hidden_states": str(world / "data"), "engine": "vllm",
                             "engine_version": "0.12.0", "serving_dump": str(world / "named")})
    return layout_step.check(context(layout_step.parse(out), VLLM))


def test_a_target_typo_is_one_finding(world):
    findings = _findings(world, "target-typo")
    naming = [f for f in findings if any("target-typo" in e for e in f.evidence)]
    assert [f.code for f in naming] == ["SD003"], [(f.code, f.evidence) for f in naming]
    [line] = naming
    assert line.evidence[0].endswith("target-typo: target checkpoint directory not found"), line.evidence
    assert f"the serving dump {world / 'named'} was read but not scored either" in line.evidence[1], line.evidence


def test_a_readable_target_says_no_sd003(world):
    findings = _findings(world, "target")
    assert not [f for f in findings if f.code == "SD003"], findings
    assert not [f for f in findings if "served layers not measured" in f.evidence[0]], findings
