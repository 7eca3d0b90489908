"""SD401 of a draft whose export cast its weights to float8 (a state dict `.to(float8_e4m3fn)`
saved with no scales and no quantization_config).

Every loader (speculators' from_pretrained, vLLM's default_weight_loader) casts such weights back
up as stored, so the draft scored and served is the cast one, less accurate than the one trained.
The evaluation's notes said so, but drafter_accuracy's SD401 ("standalone 64% against a claimed
80%") sent the user to "check the export ... the data ... retrain if the weights are bad", with
no word of the cast it had found. Now SD401 carries that note, as it carries the notes on other
weight files beside the draft. (A draft speculators 0.9.0 saved, its tensors cast as an export
would; the dump and target are the ones it was trained for.)
"""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def cast(tmp_path_factory):
    root = save_informative_world(tmp_path_factory.mktemp("h74-sd401-fp8"), seed=1)
    path = root / "draft" / "model.safetensors"
    tensors = load_file(str(path))
    save_file({name: t.to(torch.float8_e4m3fn) if t.is_floating_point() else t
               for name, t in tensors.items()}, str(path))
    return root


def _findings(root, claimed: str):
    out = drafter_eval.run({"draft_model": str(root / "draft"), "target_model": str(root / "target"),
                            "hidden_states": str(root / "data"), "claimed_accuracy": claimed})
    notes = [n for n in out["reference"]["notes"] if " stored in float8 " in n]
    return eval_step.check(context(eval_step.parse(out), {"engine": {"name": "vllm", "version": "0.12.0"}})), notes


def test_sd401_names_the_fp8_cast_the_evaluation_found(cast):
    findings, [note] = _findings(cast, "0.80")
    assert note.startswith("embed_tokens.weight, fc.weight, layers.0.hidden_norm.weight, "
                           "layers.0.input_layernorm.weight ... stored in float8 (F8_E4M3) with no "
                           "scale and no quantization_config: cast in the export"), note
    [sd401] = [f for f in findings if f.code == "SD401"]
    assert sd401.evidence[0] == "claimed validation accuracy (position 0): 80.0%"
    assert note in sd401.evidence, sd401.evidence


def test_no_sd401_when_the_cast_draft_meets_its_claim(cast):
    findings, [_note] = _findings(cast, "0.66")
    assert [f for f in findings if f.code == "SD401"] == []
