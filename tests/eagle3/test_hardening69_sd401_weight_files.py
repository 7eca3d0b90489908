"""drafter_accuracy's SD401 (standalone accuracy far below the claimed one) carried the
evaluation's notes on the dump's layout only. A trained draft saved into a file nobody loads
beside an older save (torch.save(state_dict, "model.pt") next to model.safetensors: vLLM 0.34.0
/ SGLang 0.5.23 _prepare_weights and transformers read the safetensors) scores as the older
save, and the finding sent the user to the export and the training while the evaluation's own
note said the folder holds other weights. The finding now carries the weight-file notes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.eagle3._world import eval_json, informative_world, torch  # skips without torch/speculators

from spec_debug.diagnose.checks.drafter import check_standalone_accuracy  # noqa: E402

world = informative_world("h69_sd401_files", seed=5)


def _older_save_beside_the_trained(world: Path, out: Path, trained_as: str) -> Path:
    """model.safetensors (or pytorch_model.bin) of another run; the trained draft as trained_as."""
    from safetensors.torch import load_file, save_file

    shutil.copytree(world / "draft", out)
    trained = load_file(str(out / "model.safetensors"))
    older = {k: v * 0.5 if v.is_floating_point() and "embed" not in k and "lm_head" not in k else v
             for k, v in trained.items()}
    if trained_as == "model.pt":
        torch.save(trained, out / "model.pt")
        save_file(older, str(out / "model.safetensors"), metadata={"format": "pt"})
    else:  # pytorch_model.bin read, an older export beside it the engines load too
        (out / "model.safetensors").unlink()
        torch.save(older, out / "pytorch_model.bin")
        torch.save(trained, out / trained_as)
    return out


@pytest.mark.parametrize("trained_as, said", [
    ("model.pt", "holds other weights than the safetensors beside it"),
    ("model_trained.bin", "a tensor stored in both is set from the file they read last"),
])
def test_sd401_names_the_other_weights_in_the_folder(world, tmp_path, trained_as, said):
    trained = eval_json(world, world / "draft")
    claimed = trained["full_accuracy"][0]
    draft = _older_save_beside_the_trained(world, tmp_path / "draft", trained_as)
    out = eval_json(world, draft)
    (finding,) = check_standalone_accuracy(out, claimed)
    assert finding.code == "SD401"
    (line,) = [line for line in finding.evidence if said in line]
    assert trained_as in line, line
    # the trained draft alone: no finding, no such line
    assert check_standalone_accuracy(trained, claimed) == []
