"""SD401 of a draft whose checkpoint does not hold the draft as trained, in ways the evaluation's
loading notes name: RMSNorm weights of zeros (a copy whose end was never written: norm.weight is
among the last tensors safetensors writes), or a pre-fc norm (input_norm.weight) in the weights
that the config does not switch on (norm_before_fc dropped by a hand edit or an export), so no
loader applies it.

Before: drafter_accuracy's SD401 said the standalone accuracy is far under the claim and sent the
user to "check the export ... the data ... retrain if the weights are bad"; the note that says
what to do (copy the checkpoint again, set the flag) stayed in the evaluation's notes. Now SD401
carries it. (Drafts speculators 0.9.0 saved, damaged as the copy or edit would; the dump and
target are the ones they were trained for.)
"""

from __future__ import annotations

import json
import os

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.diagnose.steps import eval_step  # noqa: E402
from spec_debug.probes import drafter_eval  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402


def _sd401(root, said: str):
    out = drafter_eval.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                            "hidden_states": str(root / "data"), "claimed_accuracy": "0.69"})
    [note] = [n for n in out["reference"]["notes"] if said in n]
    findings = eval_step.check(context(eval_step.parse(out), {"engine": {"name": "vllm", "version": "0.12.0"}}))
    [sd401] = [f for f in findings if f.code == "SD401"]
    return note, sd401


def test_zeroed_norm_of_a_cut_copy(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=1)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    tensors["norm.weight"] = torch.zeros_like(tensors["norm.weight"])
    save_file(tensors, str(path))
    note, sd401 = _sd401(root, "RMSNorm weights that are all zeros")
    assert note.startswith("RMSNorm weights that are all zeros: norm.weight: the norm's output is zero"), note
    assert note in sd401.evidence, sd401.evidence


def test_pre_fc_norm_the_config_does_not_switch_on(tmp_path):
    root = save_informative_world(tmp_path / "world", seed=1, draft_flags={"norm_before_fc": True})
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    assert "input_norm.weight" in tensors  # speculators saves the pre-fc norm under the flag
    tensors["input_norm.weight"] = torch.linspace(0.2, 3.0, tensors["input_norm.weight"].numel())
    save_file(tensors, str(path))  # a trained norm, far from its initial 1.0
    config_path = root / "draft" / "config.json"
    config = json.loads(config_path.read_text())
    config["norm_before_fc"] = False
    config_path.write_text(json.dumps(config, indent=2))
    note, sd401 = _sd401(root, "but the config does not set norm_before_fc")
    assert note.startswith("the checkpoint has input_norm.weight but the config does not set "
                           "norm_before_fc: it is not applied here"), note
    assert note in sd401.evidence, sd401.evidence
