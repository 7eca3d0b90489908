"""A draft config.json the EAGLE-3 reader refuses is said as SD004 (the checks that need it
did not run). The reader's error carries how to fix it (a null rms_norm_eps: write the value
the draft was trained with, or drop the key for the default), but the configs step kept the
message alone, so the line named the fault and no fix. The draft is saved by speculators
0.9.0, then its config edited by hand."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs, world  # noqa: E402,F401


def test_a_refused_draft_config_names_the_fix_the_reader_gives(tmp_path, world):
    root = tmp_path / "null-eps"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["rms_norm_eps"] = None
    path.write_text(json.dumps(config, indent=2))
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD004"
                 and "could not be read as an EAGLE-3 config" in f.evidence[0]]
    assert "'rms_norm_eps' is null" in finding.evidence[0]
    assert finding.evidence[0].endswith(
        "; to fix it: write the rms_norm_eps the draft was trained with (its target's config has "
        "it), or remove the key for the default 1e-06")


def test_a_refusal_without_a_fix_says_none(tmp_path, world):
    root = tmp_path / "string-theta"
    shutil.copytree(world, root)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["rope_parameters"]["rope_theta"] = "500000"
    path.write_text(json.dumps(config, indent=2))
    [finding] = [f for f in _configs(root, VLLM) if f.code == "SD004"
                 and "could not be read as an EAGLE-3 config" in f.evidence[0]]
    assert "to fix it" not in finding.evidence[0]
