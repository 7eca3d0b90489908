"""`drafter layout` on a draft whose d2t was cut short (100 offsets for 128 lm_head rows): it
said the shape in a bare note ("d2t has shape [100], not [128]") while `drafter eval` on the
same draft said "SD302: d2t has 100 entries ... save d2t again from it" -- the layout command
kept only SD303 of the vocab checks. It now says every vocab issue with its code, as eval
does. The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py), its d2t
then cut short."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.api import evaluate_drafter, probe_layout  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def short_d2t(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h57-layout-vocab"), seed=0)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    tensors["d2t"] = tensors["d2t"][:100].contiguous()
    save_file(tensors, str(path), metadata={"format": "pt"})
    return root


def _sd302(notes):
    return [n for n in notes if n.startswith("SD302: d2t has 100 entries, draft vocab is 128")]


def test_layout_names_the_short_d2t_with_its_code_as_eval_does(short_d2t):
    root = short_d2t
    evaluated = evaluate_drafter(root / "draft", root / "data", max_samples=4)
    assert _sd302(evaluated["notes"]), evaluated["notes"]
    report = probe_layout(root / "draft", root / "data", max_samples=4)
    assert _sd302(report["notes"]), report["notes"]
    assert report["ranked"], report


def test_layout_of_a_whole_d2t_says_no_vocab_code(tmp_path):
    root = save_informative_world(tmp_path / "w", seed=0)
    report = probe_layout(root / "draft", root / "data", max_samples=4)
    assert not [n for n in report["notes"] if n.startswith("SD30")], report["notes"]
