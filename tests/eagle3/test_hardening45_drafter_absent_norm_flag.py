"""A speculators draft trained with norm_before_residual = false whose config.json has lost the
key (a hand edit, a config written by an older script). speculators' Eagle3SpeculatorConfig
defaults it to false and the reference eval ran that without a word; vLLM's speculators loader
defaults it to true (config_dict.get('norm_before_residual', True), vllm
transformers_utils/configs/speculators/algos.py update_eagle3), so what vLLM serves is another
network (SD701 in the configs step). The eval now notes the default it used and vLLM's. The
world is saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.eagle3.api import evaluate_drafter  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

ABSENT = "config.json has no norm_before_residual: run here with norm_before_residual = "
DEFAULTS = ("speculators assumes false when the key is absent, vLLM true, so the draft served "
            "by vLLM may run another network than this: write \"norm_before_residual\": true or "
            "false, as the draft was trained")


@pytest.fixture(scope="module")
def worlds(tmp_path_factory):
    trained = save_informative_world(tmp_path_factory.mktemp("flag-kept"), seed=1)
    edited = tmp_path_factory.mktemp("flag-absent")
    shutil.copytree(trained, edited, dirs_exist_ok=True)
    path = edited / "draft" / "config.json"
    config = json.loads(path.read_text().replace(str(trained), str(edited)))
    assert config.pop("norm_before_residual") is False  # as speculators saved it
    path.write_text(json.dumps(config, indent=2))
    return trained, edited


def _absent_notes(result):
    return [note for note in result["notes"] if note.startswith("config.json has no ")]


def test_the_reference_eval_names_the_default_it_used_and_vllms(worlds):
    trained, edited = worlds
    kept = evaluate_drafter(trained / "draft", trained / "data", trained / "target", steps=2)
    absent = evaluate_drafter(edited / "draft", edited / "data", edited / "target", steps=2)
    assert absent["full_accuracy"] == kept["full_accuracy"]  # false, as trained
    assert _absent_notes(kept) == []
    assert _absent_notes(absent) == [ABSENT + "false (speculators' default); " + DEFAULTS]


def test_the_vllm_eval_says_it_ran_vllms_default(worlds):
    _, edited = worlds
    vllm = evaluate_drafter(edited / "draft", edited / "data", edited / "target", steps=2,
                            semantics="vllm")
    assert vllm["ignored_norm_flags"] == ["norm_before_residual"]
    assert _absent_notes(vllm) == [ABSENT + "true (as vllm runs it); " + DEFAULTS]
