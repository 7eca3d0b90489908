"""A speculators 0.9.0 Llama draft whose config.json was replaced with one naming a Qwen3
decoder (transformer_layer_config.model_type "qwen3": a config copied from another draft, or
from a newer export for another target family).

The configs step says it (SD704: "model_type is qwen3, the weights imply llama"). Before: the
drafter_eval and hidden_layout probes built a Qwen3 decoder, found no q_norm/k_norm in the
weights and raised a plain CheckpointError ("missing tensors: ..."), so each step gave an
SD003 warning ("step could not run") beside SD704, the root cause said twice. Now that refusal
is a ConfigMisfitError, as for the other ways a config does not describe its weights: after
SD704 the steps say only that they did not run because of it, and with no configs step the
step still fails naming the misfit (SD003, as the other misfits do)."""

from __future__ import annotations

import json
import os
from importlib import import_module

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, eval_step, layout_step  # noqa: E402
from spec_debug.eagle3.config import ConfigMisfitError  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}


@pytest.fixture
def qwen3_config(tmp_path):
    root = save_informative_world(tmp_path / "w", seed=0)
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"].update(model_type="qwen3", architectures=["Qwen3ForCausalLM"])
    path.write_text(json.dumps(config, indent=2))
    return root


def _probe(module: str, root) -> dict:
    return import_module(f"spec_debug.probes.{module}").run(
        {"draft_model": str(root / "draft"), "target_model": str(root / "target"),
         "hidden_states": str(root / "data")})


def _configs_facts(root) -> dict:
    facts = configs_step.parse(_probe("model_configs", root))
    host = {**VLLM, **facts}
    found = configs_step.check(context(facts, host))
    [sd704] = [f for f in found if f.code == "SD704"]
    assert "model_type is qwen3, the weights imply llama" in sd704.evidence[0]
    return host


@pytest.mark.parametrize("module, step, what", [
    ("drafter_eval", eval_step, "standalone accuracy not measured"),
    ("hidden_layout", layout_step, "layout probe not run")])
def test_after_the_configs_steps_sd704_the_loading_step_only_says_it_did_not_run(qwen3_config, module, step, what):
    raw = _probe(module, qwen3_config)
    assert "error" not in raw, raw
    assert raw["draft_misfit"].startswith(f"{qwen3_config / 'draft'}: missing tensors: layers.0.self_attn.")
    found = step.check(context(step.parse(raw), _configs_facts(qwen3_config)))
    [line] = [f for f in found if what in f.evidence[0]]
    assert (line.code, line.severity) == ("SD004", "info")
    assert line.evidence[0].startswith(
        f"{what}: the draft's config.json does not describe its weights (SD704, reported above): ")
    assert [f.code for f in found if f.severity != "info"] == []


def test_with_no_configs_step_the_eval_step_still_names_the_misfit(qwen3_config):
    raw = _probe("drafter_eval", qwen3_config)
    with pytest.raises(ConfigMisfitError) as raised:
        eval_step.check(context(eval_step.parse(raw), {}))
    assert "the config's decoder model_type is 'qwen3' but the weights are a Llama decoder's" in str(raised.value)
