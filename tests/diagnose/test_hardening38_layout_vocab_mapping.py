"""The layout probe takes the training's vocab map too (playbook var ``vocab_mapping``). A draft
exported without d2t/t2d scored every candidate layout near 0 in the hidden_layout step, whose
verdict then read "too few to tell the layouts apart ... probe a dump with more samples", while
the drafter_eval step of the same run, given the var, scored the same dump at 0.69. The world
is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.playbook import load_playbook  # noqa: E402
from spec_debug.probes import hidden_layout  # noqa: E402
from tests.eagle3.speculators_world import AUX, NL, save_informative_world  # noqa: E402


@pytest.fixture(scope="module")
def lost_maps(tmp_path_factory):
    """A draft whose export dropped d2t and t2d (the training's maps kept in vocab_mapping.pt),
    and the data again as a serving-path dump that names its layers."""
    root = save_informative_world(tmp_path_factory.mktemp("layout-lost-maps"), seed=1)
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    torch.save({"d2t": state.pop("d2t"), "t2d": state.pop("t2d")}, root / "vocab_mapping.pt")
    save_file(state, str(path), metadata={"format": "pt"})
    (root / "serving").mkdir()
    for sample in sorted((root / "data").glob("hs_*.safetensors")):
        save_file(load_file(sample), str(root / "serving" / sample.name),
                  metadata={"layer_ids": str([*AUX, NL - 1])})
    return root


def test_layout_probe_scores_with_the_training_map(lost_maps):
    args = {"draft_model": str(lost_maps / "draft"), "target_model": str(lost_maps / "target"),
            "hidden_states": str(lost_maps / "data"), "serving_dump": str(lost_maps / "serving"),
            "engine": "vllm", "vocab_mapping": str(lost_maps / "vocab_mapping.pt")}
    out = hidden_layout.run(args)
    for key in ("layout", "serving_layout"):
        assert out[key]["configured_accuracy0"] > 0.5, out[key]["verdict"]
        assert "matches this dump's layout" in out[key]["verdict"]
        assert "more samples" not in out[key]["verdict"]


@pytest.mark.parametrize("name", ["perf_regression", "hidden_state_format"])
def test_shipped_playbooks_pass_the_var_to_the_layout_probe(name):
    book = load_playbook(name).playbook
    assert book.vars.get("vocab_mapping") == ""
    step = next(s for s in book.steps if s.probe == "hidden_layout")
    assert step.with_.get("vocab_mapping") == "{{ vocab_mapping }}"
