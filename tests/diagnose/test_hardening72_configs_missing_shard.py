"""A sharded speculators 0.9.0 draft copied without one of the shards its
model.safetensors.index.json names, through perf_regression's steps in order (configs, vocab,
drafter_eval).

Before: the configs step, the first to see it, said only an SD004 info line ("shape keys and
norm flags not compared ... shard(s) that are not here"), and the vocab step then gave the
SD710 error: the configs step passed over a draft vLLM does not start with ("Following weights
were not initialized from checkpoint", vllm/model_executor/model_loader/default_loader.py).
Now the configs step gives that SD710 itself (naming the shard, and what it could not compare),
and the loading steps after it say "SD710, reported above" once each."""

from __future__ import annotations

import os

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import configs_step, eval_step, vocab_step  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.test_hardening72_missing_shard_probes import SHARDS, _probe, _said, lost  # noqa: E402,F401


def test_the_configs_step_gives_sd710_for_the_missing_shard_and_the_next_steps_defer_to_it(lost):
    host: dict = {}
    facts = configs_step.parse(_probe("model_configs", lost))
    found = configs_step.check(context(facts, host))
    host.update(facts)
    assert [(f.code, f.severity) for f in found if f.severity != "info"] == [("SD710", "error")]
    [finding] = [f for f in found if f.code == "SD710"]
    assert finding.title == "A shard the draft's weight index names is not there"
    assert finding.evidence == [
        f"{_said(lost)}: vLLM loads the shards that are here and stops (\"Following weights were "
        "not initialized from checkpoint\"); the draft's tensors in it were not read",
        "the draft config's shape keys and norm flags were not compared with its weights"]
    assert finding.facts["missing_shards"] == [SHARDS[1]]
    # said once: no info line beside it repeats the shard
    assert [f for f in found if f.code == "SD004" and SHARDS[1] in " ".join(f.evidence)] == []
    for module, step, what in (("vocab_maps", vocab_step, "vocabulary maps not checked"),
                               ("drafter_eval", eval_step, "standalone accuracy not measured")):
        facts = step.parse(_probe(module, lost))
        [line] = step.check(context(facts, host))
        host.update(facts)
        assert (line.code, line.severity) == ("SD004", "info")
        assert line.evidence[0] == (f"{what}: vLLM and SGLang cannot load the draft's weights "
                                    f"(SD710, reported above): {_said(lost)}")
        assert line.facts["provide"] == "every shard the draft's weight index names, as SD710 says"


def test_a_draft_with_every_shard_gives_no_sd710(lost):
    """The same world with the shard put back: nothing to say."""
    from safetensors.torch import save_file
    import torch

    # the lost shard held the decoder layer; a listing with it back names no missing shard
    facts = configs_step.parse(_probe("model_configs", lost))
    assert facts["configs"]["draft_missing_shards"] == [SHARDS[1]]
    save_file({"layers.0.hidden_norm.weight": torch.ones(1)}, str(lost / "draft" / SHARDS[1]),
              metadata={"format": "pt"})
    facts = configs_step.parse(_probe("model_configs", lost))
    assert facts["configs"]["draft_missing_shards"] is None
    assert "SD710" not in [f.code for f in configs_step.check(context(facts, {}))]
