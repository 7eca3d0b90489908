"""SD202 ("the engine and the trainer disagree on output-of vs input-to layer ids") was said
for a speculators draft whose top-level ids SGLang never reads: SGLang before 0.5.16 reads
only eagle_config.eagle_aux_hidden_state_layer_ids (sgl-project/sglang
python/sglang/srt/model_executor/model_runner.py, try/except -> default) and serves its
default [2, N//2, N-3] (models/llama.py set_eagle3_layers_to_capture). On an 8-layer target
that default is [2, 4, 5], the config's [1, 3, 4] + 1 by coincidence, so the check called it
a +1 convention clash. The engine read no id; the finding now is SD201 naming the unread key
and the default served, and its fix says the deployment is already right if the draft was
trained on that default (a config edited after training), which only the dump can tell.

One numbering throughout, input-to-layer (id k = the residual stream entering 0-indexed
decoder layer k, 0 = embedding output): speculators trains on its config ids raw (vLLM
extract_hidden_states, vllm v1/worker/gpu_model_runner.py `_get_eagle3_aux_layers_from_config`
uses them unchanged); SGLang captures before layer v + 1 for each configured v.
The world is saved by speculators 0.9.0 (tests/eagle3/speculators_world.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")

from spec_debug.diagnose.steps import configs_step  # noqa: E402
from spec_debug.probes import model_configs  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_verifier_and_draft  # noqa: E402

SGLANG_054 = {"engine": {"name": "sglang", "version": "0.5.4"}}


@pytest.fixture()
def world(tmp_path) -> Path:
    save_verifier_and_draft(tmp_path)  # 8-layer Llama verifier; draft saved with ids [2, 4, 5]
    return tmp_path


def _layer_findings(world: Path, edit) -> list:
    path = world / "draft" / "config.json"
    config = json.loads(path.read_text())
    edit(config)
    path.write_text(json.dumps(config))
    facts = configs_step.parse(model_configs.run({"draft_model": str(world / "draft"),
                                                  "target_model": str(world / "target")}))
    found = configs_step.check(context(facts, SGLANG_054))
    return [f for f in found if f.code in ("SD201", "SD202", "SD203")]


def test_unread_ids_one_off_the_default_are_not_called_a_plus_one_clash(world):
    def top_level_134(config):
        config["eagle_aux_hidden_state_layer_ids"] = [1, 3, 4]
    [finding] = _layer_findings(world, top_level_134)
    assert finding.code == "SD201", finding
    text = " ".join(finding.evidence)
    assert "served [2, 4, 5]" in text and "output-of vs input-to" not in text, text
    assert "reads the ids only from eagle_config.eagle_aux_hidden_state_layer_ids" in text, text
    # [0, 2, 3] + 1 = [1, 3, 4]: right if the config is what training used, and the way to
    # keep a draft really trained on [2, 4, 5] as it is served is said beside it
    assert "= [0, 2, 3]" in finding.remediation, finding.remediation
    assert "trained on the served default [2, 4, 5]" in finding.remediation, finding.remediation
    assert "leave the config as it is" in finding.remediation, finding.remediation


def test_ids_the_engine_reads_and_adds_one_to_are_still_sd202(world):
    def nested_too(config):  # SGLang reads this key and adds 1: serves [3, 5, 6]
        config["eagle_config"] = {"eagle_aux_hidden_state_layer_ids": [2, 4, 5]}
    [finding] = _layer_findings(world, nested_too)
    assert finding.code == "SD202", finding
    assert "served [3, 5, 6]" in " ".join(finding.evidence), finding.evidence
    assert "= [1, 3, 4]" in finding.remediation, finding.remediation
    assert "leave the config as it is" not in finding.remediation
