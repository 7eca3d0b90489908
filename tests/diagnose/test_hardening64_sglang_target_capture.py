"""SGLang serves an EAGLE-3 draft only over a target class whose model file defines
set_eagle3_layers_to_capture (the model runner calls it on the target for EAGLE3; a class without
it stops the server at startup: AttributeError, and from 0.5.23 a ValueError in
model_executor/model_runner_components/attention_backend_setup.py configure_aux_hidden_state_capture).

PyPI wheels read (0.4.9, 0.5.4.post2, 0.5.7, 0.5.8, 0.5.8.post1, 0.5.9, 0.5.10, 0.5.10.post1, 0.5.11,
0.5.12, 0.5.12.post1, 0.5.13, 0.5.15, 0.5.23):
- never in any of them: mixtral.py, gemma2.py, minicpm.py, minicpm3.py, ernie4.py, glm4v_moe.py
  (over glm4v.py), deepseek_v4.py. A Mixtral-8x7B target is one users serve EAGLE-3 drafts over.
- gained late: qwen3_next.py in 0.5.9 (0.5.8.post1 lacks it), kimi_k25.py in 0.5.10 (0.5.9 lacks it),
  qwen3_vl.py (Qwen3-VL and its MoE subclass) in 0.5.11 (0.5.10.post1 lacks it), gemma3_causal.py /
  gemma3_mm.py / gemma4_causal.py / gemma4_mm.py in 0.5.12 (0.5.11 lacks it).
The table said a Mixtral or Gemma-2 target was served its default layers on every release, and a
Qwen3-Next target on 0.5.8; and the SGLang launch check had no such refusal at all (vLLM's names
SupportsEagle3), even for the classes the table already refused (Qwen3 before 0.4.9, Qwen3.5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.eagle3 import engines
from spec_debug.probes.registry import ProbeContext

SGLANG = ("python -m sglang.launch_server --model-path mistralai/Mixtral-8x7B-Instruct-v0.1 --speculative-algorithm "
          "{algo} --speculative-draft-model-path org/Mixtral-eagle3 --speculative-num-steps 3 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
NEVER = [("MixtralForCausalLM", "mixtral"), ("Gemma2ForCausalLM", "gemma2"), ("MiniCPMForCausalLM", "minicpm"),
         ("MiniCPM3ForCausalLM", "minicpm3"), ("Ernie4_5_MoeForCausalLM", "ernie4"),
         ("Glm4vMoeForConditionalGeneration", "glm4v_moe"), ("DeepseekV4ForCausalLM", "deepseek_v4")]
# the way out: vLLM where its model class implements SupportsEagle3 (0.33.0 read), else no EAGLE-3
NEITHER = ("serve the target without EAGLE-3: vLLM's model class for it does not implement SupportsEagle3 either "
           "(0.18.0, 0.22.0, 0.33.0 read), so neither engine serves this draft")
VLLM_DOES = ("serve the draft with vLLM, whose model class for this target implements SupportsEagle3 (0.33.0 read), "
             "or serve the target without EAGLE-3")
# hardening65: vLLM's DeepSeek-V4 class implements SupportsEagle3 from 0.25.0 only
VLLM_FROM_0_25 = ("serve the draft with vLLM 0.25.0 or later, whose model class for this target implements "
                  "SupportsEagle3 from that release, or serve the target without EAGLE-3")
FIX = {"MixtralForCausalLM": NEITHER, "Gemma2ForCausalLM": NEITHER, "Ernie4_5_MoeForCausalLM": NEITHER,
       "Glm4vMoeForConditionalGeneration": NEITHER, "MiniCPMForCausalLM": VLLM_DOES, "MiniCPM3ForCausalLM": VLLM_DOES,
       "DeepseekV4ForCausalLM": VLLM_FROM_0_25}
# (target architecture, model file, first release with the method, the release before it)
LATE = [("Qwen3NextForCausalLM", "qwen3_next", "0.5.9", "0.5.8.post1"),
        ("KimiK25ForConditionalGeneration", "kimi_k25", "0.5.10", "0.5.9"),
        ("Qwen3VLForConditionalGeneration", "qwen3_vl", "0.5.11", "0.5.10.post1"),
        ("Qwen3VLMoeForConditionalGeneration", "qwen3_vl", "0.5.11", "0.5.10.post1"),
        ("Gemma3ForCausalLM", "gemma3_causal", "0.5.12", "0.5.11"),
        ("Gemma3ForConditionalGeneration", "gemma3_mm", "0.5.12", "0.5.11"),
        ("Gemma4ForCausalLM", "gemma4_causal", "0.5.12", "0.5.11"),
        ("Gemma4ForConditionalGeneration", "gemma4_mm", "0.5.12", "0.5.11")]


def _launch_problems(arch: str | None, version: str | None, algo: str = "EAGLE3",
                     draft_config: dict | None = None) -> list[str]:
    """The launch step's SD102 lines about the target class, for this command on that SGLang release
    with the target's config.json naming `arch`."""
    target = {"architectures": [arch] if arch else [], "model_type": "x", "num_hidden_layers": 32}
    models = {"mistralai/Mixtral-8x7B-Instruct-v0.1": {"path": "/hf/target", "config": target}}
    if draft_config is not None:
        models["org/Mixtral-eagle3"] = {"path": "/hf/draft", "config": draft_config}
    facts = launch_step.parse({"source": "var", "cmdline": SGLANG.format(algo=algo), "models": models})
    host_facts = {**facts, "engine": {"name": "sglang", "version": version}} if version else dict(facts)
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [line for f in launch_step.check(ctx) if f.code == "SD102" for line in f.evidence
            if "set_eagle3_layers_to_capture" in line or "captures no aux hidden state" in line]


@pytest.mark.parametrize(("arch", "module"), NEVER)
@pytest.mark.parametrize("version", ["0.5.23", "0.5.7", None])
def test_a_target_class_sglang_never_captures_is_never_served(arch, module, version):
    failure = engines.capture_failure("sglang", arch, version)
    on = f"SGLang {version}" if version else "SGLang"
    assert failure is not None
    assert failure.reason == (
        f"{on} cannot serve an EAGLE-3 draft over a {arch} target: its models/{module}.py has no "
        "set_eagle3_layers_to_capture in any release read (0.4.9 .. 0.5.23), which SGLang calls on the target for "
        "EAGLE3, so the server stops at startup (AttributeError; 0.5.23: ValueError \"... does not implement "
        "set_eagle3_layers_to_capture\") and no layer ids are ever read")
    assert failure.fix == FIX[arch]
    plan = engines.serve_plan("sglang", version, {}, 32, arch)
    assert plan.layer_ids == [] and plan.unreachable == [2, 16, 29]
    assert f"python/sglang/srt/models/{module}.py: no set_eagle3_layers_to_capture" in plan.sources[-2]
    assert _launch_problems(arch, version) == [f"--speculative-algorithm EAGLE3: {failure.reason} ({FIX[arch]})"]


@pytest.mark.parametrize(("arch", "module", "since", "last"), LATE)
def test_a_target_class_that_gained_the_capture_late(arch, module, since, last):
    failure = engines.capture_failure("sglang", arch, last)
    assert failure is not None and failure.reason == (
        f"SGLang {last} cannot serve an EAGLE-3 draft over a {arch} target: its models/{module}.py has no "
        "set_eagle3_layers_to_capture, which model_executor/model_runner.py calls on the target for EAGLE3, so the "
        f"server stops at startup (AttributeError; added in {since}, {last} lacks it) and no layer ids are ever read")
    assert failure.fix == f"upgrade SGLang to {since} or later and re-run this check with that release"
    assert engines.serve_plan("sglang", last, {}, 32, arch).layer_ids == []
    assert _launch_problems(arch, last) == [f"--speculative-algorithm EAGLE3: {failure.reason} ({failure.fix})"]
    for served in (since, "0.5.23", None):
        assert engines.capture_failure("sglang", arch, served) is None
        assert engines.serve_plan("sglang", served, {}, 32, arch).layer_ids == [2, 16, 29]
        assert _launch_problems(arch, served) == []


def test_the_launch_check_says_what_the_table_already_refused():
    # Qwen3 before its model file gained the method (0.4.9), and Qwen3.5 (sgl-project/sglang#38307)
    problems = _launch_problems("Qwen3ForCausalLM", "0.4.8.post1")
    assert len(problems) == 1 and problems[0].startswith(
        "--speculative-algorithm EAGLE3: SGLang 0.4.8.post1 cannot serve an EAGLE-3 draft over a Qwen3ForCausalLM")
    assert problems[0].endswith("(upgrade SGLang to 0.4.9 or later and re-run this check with that release)")
    # hardening65: 0.5.21 is the last release whose qwen3_5.py captures nothing (0.5.22 flags the layers)
    problems = _launch_problems("Qwen3_5ForConditionalGeneration", "0.5.21")
    assert len(problems) == 1 and "sglang#38307" in problems[0]
    assert _launch_problems("Qwen3_5ForConditionalGeneration", "0.5.23") == []


def test_what_the_launch_check_leaves_alone():
    for arch in ("LlamaForCausalLM", "Qwen3ForCausalLM", "Glm4MoeForCausalLM", "DeepseekV3ForCausalLM", None):
        assert _launch_problems(arch, "0.5.23") == [], arch
    # only EAGLE3 asks the target for aux states: EAGLE (EAGLE-2) and NEXTN do not
    assert _launch_problems("MixtralForCausalLM", "0.5.23", algo="EAGLE") == []
    # a draft that feeds on the last hidden state alone: the runner never calls the method (0.5.8+)
    assert _launch_problems("MixtralForCausalLM", "0.5.23",
                            draft_config={"eagle_config": {"use_aux_hidden_state": False}}) == []
    # a release with no EAGLE-3 at all is refused for that, once
    problems = effective_spec(parse_launch_command(SGLANG.format(algo="EAGLE3")),
                              target_architecture="MixtralForCausalLM", engine_version="0.4.3").problems
    assert [p for p in problems if "EAGLE3" in p and "0.4.3" in p] == [
        "--speculative-algorithm EAGLE3: SGLang 0.4.3 has no EAGLE-3 (added in 0.4.4.post2): argparse exits with "
        "'invalid choice' and the server does not start (upgrade SGLang)"]
    # vLLM is unchanged: its own refusal names SupportsEagle3
    assert engines.capture_failure("vllm", "Qwen3NextForCausalLM", "0.33.0") is None


@pytest.fixture(scope="module")
def world(tmp_path_factory) -> Path:
    pytest.importorskip("torch")
    pytest.importorskip("speculators")
    import torch
    from transformers import LlamaConfig, MixtralConfig, MixtralForCausalLM

    from tests.eagle3.speculators_world import save_perturbed_draft

    root = tmp_path_factory.mktemp("h64_sglang_target_capture")
    torch.manual_seed(0)
    config = MixtralConfig(vocab_size=256, hidden_size=32, intermediate_size=64, num_hidden_layers=8,
                           num_attention_heads=4, num_key_value_heads=2, head_dim=8, num_local_experts=4,
                           num_experts_per_tok=2, max_position_embeddings=128)
    MixtralForCausalLM(config).eval().save_pretrained(root / "target")
    layer = LlamaConfig(vocab_size=256, hidden_size=32, intermediate_size=64, num_attention_heads=4,
                        num_key_value_heads=2, head_dim=8, max_position_embeddings=128, num_hidden_layers=1)
    save_perturbed_draft(root / "draft", root / "target", layer, aux=[2, 4, 5], draft_vocab=128, vocab=256,
                         seed_name="mixtral-[2, 4, 5]")
    return root


def test_the_layer_check_on_a_mixtral_target_on_sglang_is_sd201(world):
    assert json.loads((world / "target" / "config.json").read_text())["architectures"] == ["MixtralForCausalLM"]
    from tests.diagnose.deepseek_world import layer_findings

    found, layers = layer_findings(world, "sglang", "0.5.23")
    assert [f.code for f in found] == ["SD201"], found
    assert layers["served"] == [] and layers["unreachable"] == [2, 4, 5]
    assert any(line.startswith("SGLang cannot serve an EAGLE-3 draft over a MixtralForCausalLM target: its "
                               "models/mixtral.py has no set_eagle3_layers_to_capture") for line in found[0].evidence)
    assert found[0].remediation == NEITHER[0].upper() + NEITHER[1:] + "."
