"""A speculators draft trained with norm_before_residual = true whose config.json was edited by
hand and now spells the key `norm_before_residul`. speculators' config class and the engines
look the flag up by its exact name: SGLang runs it off (it never reads the flag) and vLLM on
(its default for a speculators config without the key). The configs step read the flag as off
too, so it told vLLM users their engine diverged ("checkpoint means False, vllm runs True")
and SGLang users nothing; `drafter eval` ran the reference with the flag off, scoring another
draft than the trained one. Now the misspelled key's value is what the checkpoint means: SD701
on SGLang, an info line on vLLM, both naming the key to rename, and the reference eval runs the
trained draft. The world is saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.eagle3.api import check_drafter_vocab, evaluate_drafter  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}
SGLANG = {"engine": {"name": "sglang", "version": "0.5.30"}}
SPELLING = ("config.json writes norm_before_residul = true, a misspelling of norm_before_residual: "
            "speculators and {engine} look the flag up by its exact name and ignore this key")


@pytest.fixture(scope="module")
def worlds(tmp_path_factory):
    trained = save_informative_world(tmp_path_factory.mktemp("norm-flag"), seed=1,
                                     draft_flags={"norm_before_residual": True})
    edited = tmp_path_factory.mktemp("norm-flag-misspelled")
    shutil.copytree(trained, edited, dirs_exist_ok=True)
    path = edited / "draft" / "config.json"
    config = json.loads(path.read_text().replace(str(trained), str(edited)))
    config["norm_before_residul"] = config.pop("norm_before_residual")
    path.write_text(json.dumps(config, indent=2))
    return trained, edited


def _sd701(root, host_facts):
    raw = model_configs.run({"draft_model": str(root / "draft"), "target_model": str(root / "target")})
    return [f for f in configs_step.check(context(configs_step.parse(raw), host_facts)) if f.code == "SD701"]


def test_sglang_is_told_it_runs_the_flag_off_and_which_key_to_rename(worlds):
    _, edited = worlds
    [finding] = _sd701(edited, SGLANG)
    assert finding.severity == "error"
    assert finding.evidence[0] == "norm_before_residual: checkpoint means True, sglang 0.5.30 runs False"
    assert SPELLING.format(engine="sglang") in finding.evidence
    assert finding.remediation.startswith("Rename norm_before_residul to norm_before_residual")


def test_vllm_runs_what_training_meant_so_the_misspelling_is_info(worlds):
    trained, edited = worlds
    assert _sd701(trained, VLLM) == []
    [finding] = _sd701(edited, VLLM)
    assert finding.severity == "info"
    assert SPELLING.format(engine="vllm") in finding.evidence
    assert not any("checkpoint means False" in line for line in finding.evidence)


def test_the_reference_eval_runs_the_trained_draft(worlds):
    trained, edited = worlds
    as_trained = evaluate_drafter(trained / "draft", trained / "data", trained / "target", steps=2)
    misspelled = evaluate_drafter(edited / "draft", edited / "data", edited / "target", steps=2)
    assert misspelled["full_accuracy"] == as_trained["full_accuracy"]
    assert any(note.startswith("config.json writes norm_before_residul = true, a misspelling of "
                               "norm_before_residual") and "as training meant it" in note
               for note in misspelled["notes"])
    sglang = evaluate_drafter(edited / "draft", edited / "data", edited / "target", steps=2,
                              semantics="sglang")
    assert sglang["ignored_norm_flags"] == ["norm_before_residual"]


def test_an_unreadable_misspelled_flag_is_named_as_written(worlds, tmp_path):
    from spec_debug.eagle3.config import CheckpointError

    _, edited = worlds
    draft = tmp_path / "draft"
    shutil.copytree(edited / "draft", draft)
    config = json.loads((draft / "config.json").read_text())
    config["norm_before_residul"] = "maybe"
    (draft / "config.json").write_text(json.dumps(config))
    with pytest.raises(CheckpointError) as refused:
        check_drafter_vocab(draft, edited / "target")
    assert "'norm_before_residul' is 'maybe', expected true or false" in refused.value.message

