"""A draft speculators 0.9.0 saved, then cast whole to float8_e4m3fn (a naive "FP8 export":
every float tensor and d2t with them). Before: the vocab probe and the evaluation stopped with
"NotImplementedError: round_vml_cpu not implemented for 'Float8_e4m3fn'" (torch has no round()
for FP8), so `diagnose` lost both steps to a traceback. Now the offsets are read through float64:
the vocab step raises SD302 for the rounded d2t, and the evaluation scores the draft (the
offsets rebuilt from t2d) with its notes on the FP8 weights and the rounded map."""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import eval_step, vocab_step  # noqa: E402
from spec_debug.eagle3.head_map import mapped_ids  # noqa: E402
from spec_debug.probes import drafter_eval, vocab_maps  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

ROUNDED = ("d2t is stored as F8_E4M3, which holds integers exactly only up to 16; its offsets reach "
           "128, so they were rounded and draft ids map to wrong target ids (a whole-state-dict dtype "
           "cast)")


@pytest.fixture(scope="module")
def world(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h73-fp8-d2t"), seed=1)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    save_file({k: (v.to(torch.float8_e4m3fn) if v.is_floating_point() or k == "d2t" else v)
               for k, v in tensors.items()}, str(path), metadata={"format": "pt"})
    return root


def test_the_vocab_step_says_sd302_instead_of_a_traceback(world):
    raw = vocab_maps.run({"draft_model": str(world / "draft"), "target_model": str(world / "target")})
    findings = vocab_step.check(context(vocab_step.parse(raw), {"engine": {"name": "vllm", "version": "0.12.0"}}))
    [sd302] = [f for f in findings if f.code == "SD302"]
    assert sd302.severity == "error"
    assert sd302.evidence[0] == ROUNDED + ": save d2t as int64 (t2d.nonzero() - arange(DV))"


def test_the_evaluation_scores_the_draft_with_the_offsets_rebuilt_from_t2d(world):
    out = drafter_eval.run({"draft_model": str(world / "draft"), "target_model": str(world / "target"),
                            "hidden_states": str(world / "data")})
    reference = out["reference"]
    assert reference["samples"] == 3 and reference["tokens"] == 42
    assert ROUNDED + "; the offsets were rebuilt from t2d for this run, but engines read the rounded " \
                     "d2t: save it as int64" in reference["notes"]
    assert any(n.startswith("embed_tokens.weight, fc.weight") and "stored in float8 (F8_E4M3)" in n
               for n in reference["notes"]), reference["notes"]
    findings = eval_step.check(context(eval_step.parse(out)))
    assert [f.severity for f in findings if f.code == "SD302"] == ["error"]


def test_mapped_ids_reads_an_fp8_map():
    d2t = torch.tensor([0, 1, 2, 4], dtype=torch.float8_e4m3fn)
    assert mapped_ids(torch.tensor([0, 3]), d2t, 16).tolist() == [0, 7]
