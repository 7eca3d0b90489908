"""A sharded speculators 0.9.0 draft copied without one of the shards its
model.safetensors.index.json names, run through the drafter probes.

vLLM loads the shards that are there and then stops: the draft's parameters in the lost shard
were never loaded ("Following weights were not initialized from checkpoint: {...}",
vllm/model_executor/model_loader/default_loader.py, the check after load_weights for an
unquantized model). Before: the configs step said only that it compared no shapes (SD004, as
test_hardening40_config_weights_missing_shard keeps), and the vocab and drafter_eval probes
stopped with "model.safetensors.index.json names shard(s) that are missing: ..." raised as a
step that could not run (SD003, a warning): the run PASSED over a draft vLLM does not start
with. Now the probes hand the refusal to their steps (hostfiles.engine_weights_refusal,
"missing_shards"): the first step gives SD710, an error naming the shard (the configs step
where it ran), and the steps after it say they did not run (SD710 reported above)."""

from __future__ import annotations

import json
import os
from importlib import import_module

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, eval_step, vocab_step  # noqa: E402
from spec_debug.eagle3.config import CheckpointError  # noqa: E402
from spec_debug.probes.hostfiles import engine_weights_refusal  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import save_informative_world  # noqa: E402

SHARDS = ("model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors")


@pytest.fixture
def lost(tmp_path):
    """A speculators world (verifier, draft, training hidden states) whose draft was saved in
    two shards, its decoder layer in the second, and copied without that one."""
    from safetensors.torch import load_file, save_file

    root = save_informative_world(tmp_path / "w", seed=0)
    whole = root / "draft" / "model.safetensors"
    tensors = load_file(str(whole))
    whole.unlink()
    placed = {name: SHARDS[name.startswith("layers.")] for name in tensors}
    for file in SHARDS:
        save_file({n: t for n, t in tensors.items() if placed[n] == file}, str(root / "draft" / file),
                  metadata={"format": "pt"})
    (root / "draft" / "model.safetensors.index.json").write_text(
        json.dumps({"metadata": {}, "weight_map": placed}))
    (root / "draft" / SHARDS[1]).unlink()
    return root


def _probe(module: str, root) -> dict:
    return import_module(f"spec_debug.probes.{module}").run(
        {"draft_model": str(root / "draft"), "target_model": str(root / "target"),
         "hidden_states": str(root / "data")})


def _said(root) -> str:
    return (f"{root / 'draft' / 'model.safetensors.index.json'} names shard(s) that are missing: "
            f"{SHARDS[1]}")


@pytest.mark.parametrize("module, step", [("vocab_maps", vocab_step), ("drafter_eval", eval_step)])
def test_with_no_configs_step_the_step_gives_sd710_naming_the_shard(lost, module, step):
    raw = _probe(module, lost)
    assert "error" not in raw, raw
    assert raw["no_engine_weights"]["missing_shards"] == [SHARDS[1]]
    found = step.check(context(step.parse(raw), {}))
    assert [(f.code, f.severity) for f in found] == [("SD710", "error")]
    [finding] = found
    assert finding.title == "A shard the draft's weight index names is not there"
    assert finding.evidence[0] == (
        f"{_said(lost)}: vLLM loads the shards that are here and stops (\"Following weights were "
        "not initialized from checkpoint\"); the draft's tensors in it were not read")
    assert finding.facts["missing_shards"] == [SHARDS[1]]


def test_after_the_configs_step_the_loading_steps_do_not_repeat_it(lost):
    host = {}
    for module, step in (("model_configs", configs_step), ("vocab_maps", vocab_step)):
        facts = step.parse(_probe(module, lost))
        found = step.check(context(facts, host))
        host.update(facts)
    # the configs step gives the SD710 (test_hardening72_configs_missing_shard); the vocab step
    # says it did not run
    assert [(f.code, f.severity) for f in found] == [("SD004", "info")]
    facts = eval_step.parse(_probe("drafter_eval", lost))
    [line] = eval_step.check(context(facts, host))
    assert (line.code, line.severity) == ("SD004", "info")
    assert line.evidence[0] == ("standalone accuracy not measured: vLLM and SGLang cannot load the "
                                f"draft's weights (SD710, reported above): {_said(lost)}")


def test_an_error_about_something_else_keeps_the_drafters_own_error(lost):
    """The drafter stopped before the index (a config key of the wrong type): its error stands."""
    other = CheckpointError(f"{lost / 'draft' / 'config.json'}: 'draft_vocab_size' is 'many', "
                            "expected an integer")
    assert engine_weights_refusal(lost / "draft", other) is None
