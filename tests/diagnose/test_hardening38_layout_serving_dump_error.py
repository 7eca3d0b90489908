"""The hidden_layout step with a serving-path dump it cannot read (a typo in --var serving_dump,
a copy cut short): the probe raised after ranking the training dump's layouts, so the step
failed whole and the ranking (minutes of drafter passes) was lost. The ranking is now kept and
the serving dump's error is said as a 'not checked' line. The world is saved by speculators
0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os
import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import layout_step  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("serving-dump-error"), seed=1)
    cut = root / "cut"
    shutil.copytree(root / "data", cut)
    for path in cut.glob("hs_*.safetensors"):  # every file of the copy cut short
        path.write_bytes(path.read_bytes()[:200])
    return root


@pytest.mark.parametrize("serving, said", [("missing", "data directory not found"),
                                           ("cut", "no readable sample")])
def test_the_training_ranking_survives_an_unreadable_serving_dump(world, serving, said):
    out = hidden_layout.run({"draft_model": str(world / "draft"),
                             "target_model": str(world / "target"),
                             "hidden_states": str(world / "data"), "engine": "vllm",
                             "serving_dump": str(world / serving)})
    assert "the draft matches this dump's layout" in out["layout"]["verdict"]
    assert said in out["serving_dump_error"] and str(world / serving) in out["serving_dump_error"]
    assert "serving_layout" not in out
    found = layout_step.check(context(layout_step.parse(out)))
    [line] = [f for f in found if "serving dump could not be read" in f.evidence[0]]
    assert line.code == "SD004" and said in line.evidence[0]
