"""A launch command the engine refuses at startup is an error, not SD102's catalog warning.

The audit titled such a finding "The engine refuses this launch command at startup" but kept the
catalog's warning severity, so `spec-debug run perf_regression -H local -e server_cmdline='... --attention-backend
trtllm_mha'` (a tree SGLang refuses: sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py
`_handle_eagle_family` raises ValueError) printed "PASSED: 0 error(s), 1 warning(s)" and exited 0.
A refusal that hangs on what the audit cannot see (a plugin, the draft's n_predict, the backend
SGLang picks) stays a warning, and so does one only the newer releases make.
"""

from __future__ import annotations

import json

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TREE = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 5 "
        "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64 ")


def _sd102(command: str, models: dict | None = None, engine: dict | None = None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": models or {}})
    host_facts = dict(facts, **({"engine": engine} if engine else {}))
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [(f.severity, f.title) for f in launch_step.check(ctx) if f.code == "SD102"]


def test_a_tree_on_trtllm_mha_is_an_error():
    assert _sd102(TREE + "--attention-backend trtllm_mha") == [
        ("error", "The engine refuses this launch command at startup")]


def test_a_vllm_config_replaced_by_a_later_one_is_an_error():
    spec = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})
    found = _sd102(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{spec}' "
                   "--speculative-config '{\"num_speculative_tokens\": 3}'")
    assert found == [("error", "The engine refuses this launch command at startup")]


def test_a_conditional_refusal_stays_a_warning():
    # "unless a plugin registers that name": the audit cannot see the host's plugins
    typo = TREE.replace("EAGLE3 ", "EAGEL3 ", 1)
    assert _sd102(typo) == [("warning", "The engine refuses this launch command at startup")]
    # "unless the draft config has n_predict": the draft's config.json was not read
    spec = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"})
    assert _sd102(f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{spec}'") == [
        ("warning", "The engine refuses this launch command at startup")]


def test_a_refusal_of_newer_releases_only_stays_a_warning():
    command = TREE.replace("--speculative-draft-model-path", "--speculative-draft")
    assert _sd102(command) == [("warning", "The engine refuses this launch command at startup on its newer releases")]
    # the running release is known and refuses it: an error
    assert _sd102(command, engine={"name": "sglang", "version": "0.5.4"}) == [
        ("error", "The engine refuses this launch command at startup")]


def test_an_mtp_k_vllm_refuses_is_an_error():
    target = {"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3", "num_hidden_layers": 61,
              "num_nextn_predict_layers": 3}
    spec = json.dumps({"method": "deepseek_mtp", "num_speculative_tokens": 5})
    found = _sd102(f"vllm serve /models/dsv3 --speculative-config '{spec}'",
                   models={"/models/dsv3": {"found": True, "path": "/models/dsv3", "config": target}})
    assert [severity for severity, _ in found] == ["error"]


def test_a_budget_the_engine_overrides_stays_a_warning():
    assert _sd102(TREE.replace("--speculative-num-draft-tokens 64", "--speculative-num-draft-tokens 2")) == [
        ("warning", "Draft-token budget inconsistent with steps and topk")]


def test_a_refusal_beside_a_budget_line_is_an_error():
    # the tree cannot hold 200 draft tokens, and SGLang refuses a tree on page size 16 with flashmla
    # (speculative_hook.py _handle_eagle_family): the budget finding was a warning, exit 0
    tree = TREE.replace("--speculative-num-steps 5", "--speculative-num-steps 2").replace(
        "--speculative-num-draft-tokens 64", "--speculative-num-draft-tokens 200")
    assert _sd102(tree + "--page-size 16 --attention-backend flashmla") == [
        ("error", "Draft-token budget inconsistent with steps and topk")]
    # the same budget on a backend that draws the tree: still an error (hardening74: was the
    # catalog's warning), since 199 nodes of a 72-node tree crash SGLang's tree selection
    # (eagle_utils.py organize_draft_results' torch.topk) at the draft CUDA-graph capture
    assert _sd102(tree + "--page-size 16 --attention-backend flashinfer") == [
        ("error", "Draft-token budget inconsistent with steps and topk")]
    # a budget the tree holds on that backend: no SD102
    assert _sd102(tree.replace("--speculative-num-draft-tokens 200", "--speculative-num-draft-tokens 64")
                  + "--page-size 16 --attention-backend flashinfer") == []


def test_no_sd101_beside_a_refusal_that_shares_a_budget_line():
    # 1 step, topk 8, 20 draft tokens (the tree holds 9) on trtllm_mha (topk 1 only): SD101's cap
    # of one drafted token per round was told beside it, of a server that never starts
    one = TREE.replace("--speculative-num-steps 5", "--speculative-num-steps 1").replace(
        "--speculative-num-draft-tokens 64", "--speculative-num-draft-tokens 20")
    facts = launch_step.parse({"source": "var", "cmdline": one + "--attention-backend trtllm_mha", "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    found = [(f.code, f.severity) for f in launch_step.check(ctx)]
    assert found == [("SD102", "error")]


def test_a_draft_key_in_the_speculative_config_is_an_error_only_on_a_release_that_refuses_it():
    # vllm/config/speculative.py: pydantic refuses an unknown key from 0.14.0, 0.9 .. 0.13 drop it
    spec = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                       "num_speculative_tokens": 3, "eagle_aux_hidden_state_layer_ids": [1, 15, 28]})
    command = f"vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config '{spec}'"
    assert _sd102(command, engine={"name": "vllm", "version": "0.30.0"}) == [
        ("error", "The engine refuses this launch command at startup")]
    # the release unknown: "0.14.0 and later refuse it ...; 0.9 to 0.13 drop it"
    assert _sd102(command) == [("warning", "The engine refuses this launch command at startup")]
    assert _sd102(command, engine={"name": "vllm", "version": "0.12.0"}) == [
        ("warning", "Draft-token budget inconsistent with steps and topk")]
