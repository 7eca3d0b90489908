"""The configs step given a target whose config.json states num_hidden_layers 0 (a template
value never filled in, a config cut to its tokenizer keys and a zero): 0 passed as a layer
count, the serve plan of a 0-layer target captured nothing, and the step raised SD201
"served []" against the trained ids, sending the user after the draft's layer ids. It now
says the target's count is unusable (SD004, naming the value) and raises no layer finding;
a target with its real count still gets the comparison. The world is saved by speculators
0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("h57-zero-layers")
    save_verifier_and_draft(root)
    return root


def _check(world: Path, layers):
    path = world / "target" / "config.json"
    config = json.loads(path.read_text())
    config["num_hidden_layers"] = layers
    path.write_text(json.dumps(config))
    facts = configs_step.parse(model_configs.run({"draft_model": str(world / "draft"),
                                                  "target_model": str(world / "target")}))
    return configs_step.check(context(facts, VLLM))


@pytest.mark.parametrize("layers", [0, -8, True])
def test_a_target_of_no_layers_is_said_not_compared(world, layers):
    found = _check(world, layers)
    assert not [f for f in found if f.code in ("SD201", "SD202", "SD203")], found
    [line] = [f for f in found if "aux layers not compared" in f.evidence[0]]
    assert line.code == "SD004"
    assert f"num_hidden_layers {layers!r} (expected a positive integer)" in line.evidence[0], line.evidence


def test_the_real_count_is_still_compared(world):
    found = _check(world, 8)
    assert not [f for f in found if "aux layers not compared" in f.evidence[0]], found
