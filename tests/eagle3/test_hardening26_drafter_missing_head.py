"""A draft speculators saved, exported without lm_head.weight (an exporter that tied the head to
embed_tokens writes the shared tensor once): the error named the tensor only, no fix."""

from __future__ import annotations

import shutil

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("speculators")

from safetensors.torch import load_file, save_file  # noqa: E402

from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.eagle3.loading import load_draft  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402


def test_a_draft_saved_without_its_head_says_what_to_save(tmp_path):
    save_verifier_and_draft(tmp_path / "saved")
    draft = tmp_path / "draft"
    shutil.copytree(tmp_path / "saved" / "draft", draft)
    state = load_file(draft / "model.safetensors")
    del state["lm_head.weight"]
    save_file(state, str(draft / "model.safetensors"), metadata={"format": "pt"})
    with pytest.raises(CheckpointError, match="missing tensors: lm_head.weight") as raised:
        load_draft(draft, tmp_path / "saved" / "target")
    assert raised.value.hint == ("save the draft again with its lm_head.weight [128, 32] (one "
                                 "row per draft token: a head tied to the 256-row embedding "
                                 "cannot be it)")
