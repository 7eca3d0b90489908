"""The host probes take the training's vocab map (playbook var ``vocab_mapping``): a resumed
SpecForge run regenerated the checkpoint's d2t (sgl-project/SpecForge#534), and only the
training's ``vocab_mapping.pt`` tells. The world is saved by speculators 0.9.0
(tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file

from spec_debug.playbook import load_playbook
from spec_debug.probes import drafter_eval, vocab_maps
from tests.eagle3.speculators_world import DV, V, save_informative_world


@pytest.fixture(scope="module")
def resumed(tmp_path_factory):
    """A world whose draft carries another valid map; the training's one is in vocab_mapping.pt."""
    root = save_informative_world(tmp_path_factory.mktemp("probe-vocab-mapping"), seed=8)
    path = root / "draft" / "model.safetensors"
    state = load_file(path)
    selected = torch.sort(torch.randperm(V, generator=torch.Generator().manual_seed(1))[:DV]).values
    other_t2d = torch.zeros(V, dtype=torch.bool)
    other_t2d[selected] = True
    torch.save({"d2t": state["d2t"].clone(), "t2d": state["t2d"].clone()}, root / "vocab_mapping.pt")
    state["d2t"], state["t2d"] = selected - torch.arange(DV), other_t2d
    save_file(state, str(path), metadata={"format": "pt"})
    return root


def _kinds(report: dict) -> list[str]:
    return [i["kind"] for c in report["checks"] for i in c["issues"]]


def test_vocab_probe_checks_the_checkpoint_against_the_training_map(resumed):
    args = {"draft_model": str(resumed / "draft"), "target_model": str(resumed / "target")}
    assert "d2t_not_training_map" not in _kinds(vocab_maps.run(args)["report"])
    checked = vocab_maps.run({**args, "vocab_mapping": str(resumed / "vocab_mapping.pt")})["report"]
    assert "d2t_not_training_map" in _kinds(checked)


def test_eval_probe_scores_with_the_training_map(resumed):
    args = {"draft_model": str(resumed / "draft"), "target_model": str(resumed / "target"),
            "hidden_states": str(resumed / "data"), "max_samples": "8"}
    served = drafter_eval.run(args)["reference"]
    trained = drafter_eval.run({**args, "vocab_mapping": str(resumed / "vocab_mapping.pt")})["reference"]
    assert trained["target_acceptance"][0] > served["target_acceptance"][0] + 0.2
    assert "d2t_not_training_map" in [i["kind"] for i in trained["vocab_issues"]]


@pytest.mark.parametrize("name", ["perf_regression", "drafter_accuracy"])
def test_shipped_playbooks_pass_the_var_to_the_probes(name):
    book = load_playbook(name).playbook
    assert "vocab_mapping" in book.vars
    probes = {s.probe: s for s in book.steps if s.probe in ("vocab_maps", "drafter_eval")}
    assert probes and all(s.with_.get("vocab_mapping") == "{{ vocab_mapping }}" for s in probes.values())
