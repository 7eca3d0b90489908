"""A speculators draft trained with a norm before fc (norm_before_fc: input_norm.weight
[num_aux x H]; fc_norm: fc_norm.{i}.weight [H] per aux state), whose config.json then lost the
flag (regenerated or copied from another draft): speculators builds these norms only under the
flag, so the drafter, speculators and an engine that reads the flag run the draft without a
norm it was trained with (EAGLE3.md incidents 4 and 6: acceptance fell, silently). The configs
step said nothing: no shape key describes these norms; the drafter's note was the only trace.
The other way round (the flag set over weights without the norm) failed the layout and eval
steps as SD003. Both are now SD704 naming the flag, and the steps that load the draft say
they did not run because of it. The drafts are saved by speculators 0.9.0."""

from __future__ import annotations

import json
import os
import shutil

import pytest

pytest.importorskip("torch")
pytest.importorskip("speculators")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from spec_debug.diagnose.steps import eval_step, layout_step  # noqa: E402
from spec_debug.probes import drafter_eval, hidden_layout  # noqa: E402
from tests.diagnose.test_steps import context  # noqa: E402
from tests.eagle3.speculators_world import AUX, DV, H, V, save_informative_world, save_perturbed_draft  # noqa: E402
from tests.eagle3.test_hardening39_config_hidden_size import VLLM, _configs  # noqa: E402

SGLANG = {"engine": {"name": "sglang", "version": "0.5.12"}}


@pytest.fixture(scope="module")
def worlds(tmp_path_factory):
    """{flags: root}: the informative world's target and data, with a draft saved over it."""
    from transformers import LlamaConfig

    base = save_informative_world(tmp_path_factory.mktemp("norm-weights-base"), seed=1)
    kw = dict(vocab_size=V, hidden_size=H, intermediate_size=64, num_attention_heads=4,
              num_key_value_heads=2, head_dim=8, max_position_embeddings=128)
    out = {}
    for name, flags in (("plain", {}), ("norm_before_fc", {"norm_before_fc": True}), ("fc_norm", {"fc_norm": True})):
        root = tmp_path_factory.mktemp(f"norm-weights-{name}")
        shutil.copytree(base / "target", root / "target")
        shutil.copytree(base / "data", root / "data")
        save_perturbed_draft(root / "draft", root / "target", LlamaConfig(num_hidden_layers=1, **kw),
                             aux=AUX, draft_vocab=DV, vocab=V, seed_name=f"norm-weights-{name}", flags=flags)
        out[name] = root
    return out


def _edited(tmp_path, root, **flags):
    copy = tmp_path / "edited"
    shutil.copytree(root, copy)
    path = copy / "draft" / "config.json"
    config = json.loads(path.read_text())
    for key, value in flags.items():
        if value is None:
            config.pop(key, None)
        else:
            config[key] = value
    path.write_text(json.dumps(config, indent=2))
    return copy


def _sd704(root, host_facts):
    return [f for f in _configs(root, host_facts) if f.code == "SD704"]


def test_the_drafts_as_speculators_saved_them_have_no_sd704(worlds):
    for root in worlds.values():
        for host_facts in (VLLM, SGLANG, {}):
            assert _sd704(root, host_facts) == []


@pytest.mark.parametrize("flag, weight, shape", [("norm_before_fc", "input_norm.weight", [3 * H]),
                                                 ("fc_norm", "fc_norm.0.weight", [H])])
@pytest.mark.parametrize("value, said", [(None, "absent (false assumed)"), (False, "false")])
def test_a_norm_flag_dropped_from_weights_that_hold_its_norm_is_sd704(tmp_path, worlds, flag, weight, shape,
                                                                      value, said):
    root = _edited(tmp_path, worlds[flag], **{flag: value})
    for host_facts in (VLLM, SGLANG, {}):
        [finding] = _sd704(root, host_facts)
        assert finding.severity == "error"
        [line] = finding.evidence
        assert line.startswith(f"{flag} is {said}, the weights hold {weight} {shape} (")
        assert line.endswith(f": set {flag} to true")
        assert finding.facts["mismatched_keys"] == [{"key": flag, "config": value, "weights": True}]


@pytest.mark.parametrize("flag, weight", [("norm_before_fc", "input_norm.weight"), ("fc_norm", "fc_norm.0.weight")])
def test_a_norm_flag_set_over_weights_without_its_norm_is_sd704_and_the_loading_steps_say_so(
        tmp_path, worlds, flag, weight):
    root = _edited(tmp_path, worlds["plain"], **{flag: True})
    found = _configs(root, VLLM)
    [finding] = [f for f in found if f.code == "SD704"]
    [line] = finding.evidence
    assert line.startswith(f"{flag} is true, the weights hold no {weight}: ") and line.endswith(f"set {flag} to false")
    host = {**VLLM, "configs": {"raised": sorted({f.code for f in found if f.severity == "error"})}}
    args = {"draft_model": str(root / "draft"), "target_model": str(root / "target"),
            "hidden_states": str(root / "data"), "engine": "vllm", "engine_version": "0.12.0",
            "device": "cpu", "max_samples": "2", "steps": "1"}
    for probe, step in ((hidden_layout, layout_step), (drafter_eval, eval_step)):
        said = step.check(context(step.parse(probe.run(args)), host))
        [not_run] = [f for f in said if "does not describe its weights" in f.evidence[0]]
        assert not_run.code == "SD004" and "(SD704, reported above)" in not_run.evidence[0]
        assert f"{flag} is set but the checkpoint has no {weight}" in not_run.evidence[0]


@pytest.mark.parametrize("flag", ["norm_before_fc", "fc_norm"])
def test_a_flag_the_weights_do_not_back_is_not_sd701_too(tmp_path, worlds, flag):
    """vLLM 0.12 runs neither norm: SD701 said the checkpoint meant the flag and sent the user
    to an engine that runs it, beside SD704 saying the weights hold no such norm."""
    root = _edited(tmp_path, worlds["plain"], **{flag: True})
    found = _configs(root, VLLM)
    assert [f.code for f in found if f.severity == "error"] == ["SD704"]
