"""A serving-path dump that names its layers, given with a draft_model that is no checkpoint
here (a typo): the hidden_layout probe scored the dump only with the draft path it could
resolve, so it skipped the scoring, and the layout step said nothing at all, as if the served
layers had been measured. The path now goes to the drafter as given (as the training dump's
ranking does, hostfiles.given_model), and the step says the dump was read but the draft could
not be loaded, naming the path. The world is saved by speculators 0.9.0
(tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")
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

    root = save_informative_world(tmp_path_factory.mktemp("serving-dump-draft"), seed=1)
    named = root / "named"
    named.mkdir()
    for path in sorted((root / "data").glob("hs_*.safetensors")):  # a dump that names its layers
        save_file(load_file(str(path)), str(named / path.name), metadata={"layer_ids": json.dumps([2, 4, 5, 8])})
    return root


def test_a_draft_typo_beside_a_serving_dump_is_said(world):
    out = hidden_layout.run({"draft_model": str(world / "draft-typo"), "target_model": str(world / "target"),
                             "engine": "vllm", "engine_version": "0.12.0", "serving_dump": str(world / "named")})
    found = layout_step.check(context(layout_step.parse(out), VLLM))
    [line] = [f for f in found if "served layers not measured" in f.evidence[0]]
    assert f"the serving dump {world / 'named'} was read" in line.evidence[0], line.evidence
    assert f"{world / 'draft-typo'}: draft checkpoint directory not found" in line.evidence[0], line.evidence
    assert "--var draft_model=DIR" in line.facts["provide"]
