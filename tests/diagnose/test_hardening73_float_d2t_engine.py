"""A draft speculators 0.9.0 saved, then cast whole to float32 (d2t too: a state-dict dtype
cast), served by vLLM. Its offsets (at most 127) are exact in F32, and vLLM copies d2t into its
int64 draft_id_to_target_id (llama_eagle3.py default_weight_loader): served right, as the SD302
line itself says ("vLLM and speculators copy them into int64, but SGLang ..."). Before: the
vocab step and the evaluation raised SD302 as an error on the vLLM host all the same, and the
run failed over a fault only SGLang has. Now it is info there, titled so; an error on SGLang or
where the engine is not known, as before."""

from __future__ import annotations

import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

import torch  # noqa: E402
from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import eval_step, vocab_step  # noqa: E402
from spec_debug.probes import drafter_eval, vocab_maps  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

TITLE = "d2t is stored as a float type: served right by vLLM, not by SGLang (not a fault on vllm)"


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h73-float-d2t"), seed=1)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    assert str(tensors["d2t"].dtype) == "torch.int64"  # as speculators saved it
    save_file({k: (v.float() if k == "d2t" else v) for k, v in tensors.items()}, str(path),
              metadata={"format": "pt"})
    return root


def _engine(name):
    return {"engine": {"name": name, "version": "0.12.0"}} if name else {}


def _sd302(findings):
    return [(f.severity, f.title) for f in findings if f.code == "SD302"]


@pytest.mark.parametrize("engine, expected", [
    ("vllm", [("info", TITLE)]),
    ("sglang", [("error", "d2t is not an offset table")]),
    (None, [("error", "d2t is not an offset table")])])
def test_the_vocab_step_weighs_a_float_d2t_by_the_served_engine(world, engine, expected):
    raw = vocab_maps.run({"draft_model": str(world / "draft"), "target_model": str(world / "target")})
    found = vocab_step.check(context(vocab_step.parse(raw), _engine(engine)))
    assert _sd302(found) == expected
    [line] = [f for f in found if f.code == "SD302"][0].evidence
    assert line.startswith("d2t is stored as F32, not an integer type"), line


@pytest.mark.parametrize("engine, expected", [
    ("vllm", [("info", TITLE)]),
    ("sglang", [("error", "d2t is not an offset table")])])
def test_the_evaluation_alone_says_it_the_same_way(world, engine, expected):
    out = drafter_eval.run({"draft_model": str(world / "draft"), "target_model": str(world / "target"),
                            "hidden_states": str(world / "data"), "engine": engine})
    assert _sd302(eval_step.check(context(eval_step.parse(out), _engine(engine)))) == expected


def test_a_float_d2t_whose_offsets_were_rounded_stays_an_error_on_vllm(world, tmp_path):
    root = tmp_path / "w"
    shutil.copytree(world, root)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    save_file({**tensors, "d2t": tensors["d2t"].to(torch.float8_e5m2)}, str(path),
              metadata={"format": "pt"})
    raw = vocab_maps.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    found = vocab_step.check(context(vocab_step.parse(raw), _engine("vllm")))
    assert [s for s, _ in _sd302(found)] == ["error"]
