"""A serving-path dump whose files do not name their layers (vLLM's hidden-state extraction
writes hs_<i>.safetensors with token_ids and hidden_states and no layer_ids metadata): the
hidden_layout probe read it and the layout step then said nothing at all, as if the served
layers had been measured and found right. The step now says they were not measured and why.
A dump that names its layers still gets no such line. The world is saved by speculators 0.9.0
(tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
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

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    from safetensors.torch import load_file, save_file

    root = save_informative_world(tmp_path_factory.mktemp("serving-dump-no-ids"), seed=1)
    named = root / "named"
    named.mkdir()
    for path in sorted((root / "data").glob("hs_*.safetensors")):  # the served ids + the last layer
        save_file(load_file(str(path)), str(named / path.name), metadata={"layer_ids": json.dumps([2, 4, 5, 8])})
    return root


def _layout(world, serving):
    out = hidden_layout.run({"draft_model": str(world / "draft"), "target_model": str(world / "target"),
                             "engine": "vllm", "engine_version": "0.12.0",
                             "serving_dump": str(world / serving)})
    return layout_step.check(context(layout_step.parse(out), VLLM))


def test_a_serving_dump_without_layer_ids_is_said_not_measured(world):
    found = _layout(world, "data")
    [line] = [f for f in found if "served layers not measured" in f.evidence[0]]
    assert line.code == "SD004" and line.severity == "info"
    assert str(world / "data") in line.evidence[0] and "names no layer ids" in line.evidence[0]


def test_a_serving_dump_that_names_its_layers_gets_no_such_line(world):
    found = _layout(world, "named")
    assert not [f for f in found if "served layers not measured" in f.evidence[0]], found
    assert [f.code for f in found if f.severity == "error"] == []
