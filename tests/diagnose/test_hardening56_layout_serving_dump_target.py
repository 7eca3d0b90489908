"""A serving-path dump given with a target_model that is no checkpoint here (a typo): the
hidden_layout probe read the dump, then failed to load the target to score it with, and the
layout step said "the serving dump could not be read", asking for "a readable serving-path
dump (--var serving_dump=DIR)" - the one input that was right. It now says the dump was read
and the checkpoint was not, naming the target path, and asks for the checkpoints. A dump that
cannot be read is still said so. The world is saved by speculators 0.9.0
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

    root = save_informative_world(tmp_path_factory.mktemp("serving-dump-target"), seed=1)
    named = root / "named"
    named.mkdir()
    for path in sorted((root / "data").glob("hs_*.safetensors")):  # a dump that names its layers
        save_file(load_file(str(path)), str(named / path.name), metadata={"layer_ids": json.dumps([2, 4, 5, 8])})
    return root


def _lines(world, target, serving):
    out = hidden_layout.run({"draft_model": str(world / "draft"), "target_model": str(world / target),
                             "engine": "vllm", "engine_version": "0.12.0",
                             "serving_dump": str(world / serving)})
    return [f for f in layout_step.check(context(layout_step.parse(out), VLLM))
            if "served layers not measured" in f.evidence[0]]


def test_a_target_typo_is_not_said_as_an_unreadable_serving_dump(world):
    [line] = _lines(world, "target-typo", "named")
    said = line.evidence[0]
    assert "could not be read" not in said, said
    assert f"the serving dump {world / 'named'} was read" in said, said
    assert f"{world / 'target-typo'}: target checkpoint directory not found" in said, said
    assert line.code == "SD004" and "--var target_model=DIR" in line.facts["provide"]
    assert "serving_dump" not in line.facts["provide"]


def test_an_unreadable_serving_dump_is_still_said_so(world):
    [line] = _lines(world, "target", "missing")
    assert "the serving dump could not be read" in line.evidence[0], line.evidence
    assert "data directory not found" in line.evidence[0]
