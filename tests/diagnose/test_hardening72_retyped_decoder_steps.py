"""A speculators 0.9.0 draft whose transformer_layer_config.model_type was set by hand to the
target's type ("mistral", "qwen2"), its weights still the Llama layer speculators trained.

The configs step says it (SD704, a warning: vLLM builds its Llama EAGLE-3 layer whatever the
key says). Before: the vocab and drafter_eval probes stopped with a plain CheckpointError
("draft decoder model_type 'mistral' is not supported") and the layout probe kept it as a
layout_error, so each step gave an SD003 warning ("step could not run") beside SD704: the
same cause said twice in other words. Now the drafter refuses it as a ConfigMisfitError (a
config that does not describe its weights, as the Qwen3-config-over-Llama case): after SD704
the steps say only that they did not run because of it; with no configs step they still fail
naming the misfit and its fix. A real Qwen2-shaped layer (projection biases) keeps the
reader's refusal, and the intact draft still runs every step."""

from __future__ import annotations

import json
import os
from importlib import import_module

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, eval_step, layout_step, vocab_step  # noqa: E402
from spec_debug.eagle3.config import CheckpointError, ConfigMisfitError  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

VLLM = {"engine": {"name": "vllm", "version": "0.12.0"}}
STEPS = [("vocab_maps", vocab_step, "vocabulary maps not checked"),
         ("drafter_eval", eval_step, "standalone accuracy not measured"),
         ("hidden_layout", layout_step, "layout probe not run")]


@pytest.fixture
def world(tmp_path):
    return save_informative_world(tmp_path / "w", seed=0)


def _retype(root, model_type):
    path = root / "draft" / "config.json"
    config = json.loads(path.read_text())
    config["transformer_layer_config"]["model_type"] = model_type
    path.write_text(json.dumps(config, indent=2))
    return root


def _probe(module: str, root) -> dict:
    return import_module(f"spec_debug.probes.{module}").run(
        {"draft_model": str(root / "draft"), "target_model": str(root / "target"),
         "hidden_states": str(root / "data")})


def _configs_facts(root) -> tuple[dict, list]:
    facts = configs_step.parse(_probe("model_configs", root))
    host = {**VLLM, **facts}
    return host, configs_step.check(context(facts, host))


@pytest.mark.parametrize("model_type", ["mistral", "qwen2"])
@pytest.mark.parametrize("module, step, what", STEPS)
def test_after_the_configs_steps_sd704_the_loading_steps_only_say_they_did_not_run(
        world, model_type, module, step, what):
    root = _retype(world, model_type)
    host, configs = _configs_facts(root)
    assert [(f.code, f.severity) for f in configs if f.severity != "info"] == [("SD704", "warning")]
    raw = _probe(module, root)
    assert raw["draft_misfit"].startswith(
        f"{root / 'draft' / 'config.json'}: transformer_layer_config.model_type is {model_type!r}, "
        "a decoder speculators builds no EAGLE-3 layer for (only llama, qwen3), and the weights "
        "hold a Llama layer (no projection bias, no q_norm/k_norm)")
    found = step.check(context(step.parse(raw), host))
    [line] = [f for f in found if what in f.evidence[0]]
    assert (line.code, line.severity) == ("SD004", "info")
    assert line.evidence[0].startswith(
        f"{what}: the draft's config.json does not describe its weights (SD704, reported above): "
        f"{root / 'draft' / 'config.json'}: transformer_layer_config.model_type is {model_type!r}")
    assert [f.code for f in found if f.severity != "info"] == []


@pytest.mark.parametrize("module, step, what", STEPS)
def test_with_no_configs_step_the_steps_still_name_the_misfit_and_its_fix(world, module, step, what):
    raw = _probe(module, _retype(world, "mistral"))
    with pytest.raises(ConfigMisfitError) as raised:
        step.check(context(step.parse(raw), {}))
    assert "transformer_layer_config.model_type is 'mistral'" in str(raised.value)
    assert 'set transformer_layer_config.model_type to "llama"' in str(raised.value)


def test_a_qwen2_layer_with_projection_biases_keeps_the_readers_refusal(world):
    """No mislabelled Llama layer: the config does describe these weights, so no misfit."""
    import torch
    from safetensors.torch import load_file, save_file

    root = _retype(world, "qwen2")
    weights = root / "draft" / "model.safetensors"
    tensors = load_file(str(weights))
    for proj in ("q", "k", "v"):
        tensors[f"layers.0.self_attn.{proj}_proj.bias"] = torch.zeros(
            tensors[f"layers.0.self_attn.{proj}_proj.weight"].shape[0])
    save_file(tensors, str(weights), metadata={"format": "pt"})
    with pytest.raises(CheckpointError) as raised:
        _probe("drafter_eval", root)
    assert not isinstance(raised.value, ConfigMisfitError)
    assert "draft decoder model_type 'qwen2' is not supported" in str(raised.value)


def test_the_intact_draft_runs_every_step(world):
    host, configs = _configs_facts(world)
    assert [f.code for f in configs if f.severity != "info"] == []
    for module, step, _ in STEPS:
        raw = _probe(module, world)
        assert "draft_misfit" not in raw and "layout_error" not in raw, (module, raw)
        found = step.check(context(step.parse(raw), host))
        assert [f.code for f in found if f.severity != "info"] == [], (module, found)
