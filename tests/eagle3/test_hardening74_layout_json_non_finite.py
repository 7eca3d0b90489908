"""`drafter layout --json` and the layout probe's document on a wide dump with Inf in a slot
the draft does not read: the slot's embedding check has `max_abs_diff` = inf, which Python's
json wrote as the bare word `Infinity`. jq, JavaScript's JSON.parse and other strict readers
refuse the whole document. Now both write standard JSON, the number as the string
"Infinity" (as the run record writes non-finite numbers), so the evidence stays.
Saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.eagle3.json_doc import json_document  # noqa: E402
from tests.eagle3.test_hardening74_layout_non_finite_slot import _damaged, world  # noqa: E402,F401


def _strict(text: str):
    """json.loads as a standard reader: NaN/Infinity refused."""
    def refuse(word):
        raise ValueError(f"not standard JSON: {word}")
    return json.loads(text, parse_constant=refuse)


def _inf_dump(wide, out):
    from safetensors.torch import load_file, save_file

    out.mkdir()
    for path in sorted(wide.glob("hs_*.safetensors")):
        tensors = load_file(str(path))
        hidden = tensors["hidden_states"].clone()
        hidden[3, 7] = float("inf")
        tensors["hidden_states"] = hidden
        save_file(tensors, str(out / path.name))
    return out


def _run(*args):
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, env=env, timeout=600)


@pytest.mark.parametrize("entry", ["cli", "probe"])
def test_layout_json_with_an_infinite_slot_is_standard_json(world, tmp_path, entry):
    root, wide = world
    data = _inf_dump(wide, tmp_path / "data")
    common = ["--model", str(root / "draft"), "--data", str(data), "--target", str(root / "target")]
    if entry == "cli":
        proc = _run("spec_debug", "drafter", "layout", *common, "--json")
    else:
        proc = _run("spec_debug.eagle3", "layout", *common)
    assert proc.returncode == 0, proc.stderr[-2000:]
    doc = _strict(proc.stdout)  # was: ValueError on the bare word Infinity
    diffs = {check["slot"]: check["max_abs_diff"] for check in doc["slot_checks"]}
    assert diffs[7] == "Infinity"
    assert all(isinstance(diffs[slot], float) for slot in diffs if slot != 7)
    assert doc["best"] == [2, 4, 5]


def test_json_document_names_each_non_finite_number_and_keeps_the_rest():
    value = {"a": [1.5, math.nan, -math.inf], "b": (math.inf, "x"), "c": {"d": 2}}
    assert _strict(json_document(value)) == {"a": [1.5, "NaN", "-Infinity"], "b": ["Infinity", "x"],
                                             "c": {"d": 2}}
    assert json_document({"n": 1.0}, indent=2) == json.dumps({"n": 1.0}, indent=2)
