"""Real launch commands and draft configs through the launch audit and the config checks:

- a P-EAGLE (parallel drafting) draft served the way vLLM serves it (method "eagle3" with
  "parallel_drafting": true, vllm-project/vllm PR #32887) was called an EAGLE-1 head (SD103
  error, from "PEagle" in its architecture name), and its depth and shapes were unread
  ("speculators_model_type is 'peagle', not 'eagle3'");
- a vLLM --speculative-config without num_speculative_tokens was always "missing": vLLM takes the
  draft config's n_predict (an MLPSpeculator, as the vLLM docs launch it) and suffix decoding's tree
  depth, and for a speculators draft the old line ("unless the draft config supplies it") pointed
  at the very config vLLM does not read there (vllm-project/vllm PR #44566, open);
- SGLang NGRAM's own refusals (a tree on paged KV outside flashinfer, dp attention) passed, and a
  non-integer --speculative-ngram-max-bfs-breadth raised out of the step.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.diagnose.steps import configs_step, launch_step
from spec_debug.probes.registry import ProbeContext

pytest.importorskip("speculators")


def _speculators_config(tmp_path, kind: str, tokens: int) -> dict:
    """config.json as speculators 0.9.0 saves an eagle3 or peagle draft (its own config classes)."""
    from transformers import LlamaConfig
    from speculators.config import SpeculatorsConfig, VerifierConfig
    from speculators.models.eagle3 import Eagle3SpeculatorConfig
    from speculators.models.peagle.config import PEagleSpeculatorConfig
    from speculators.proposals.greedy import GreedyTokenProposalConfig

    layer = LlamaConfig(num_hidden_layers=2 if kind == "peagle" else 1, vocab_size=128256, hidden_size=2048,
                        intermediate_size=8192, num_attention_heads=32, num_key_value_heads=8, head_dim=64,
                        max_position_embeddings=131072)
    spec = SpeculatorsConfig(algorithm=kind, proposal_methods=[GreedyTokenProposalConfig(speculative_tokens=tokens)],
                             default_proposal_method="greedy",
                             verifier=VerifierConfig(name_or_path="meta-llama/Llama-3.2-1B-Instruct",
                                                     architectures=["LlamaForCausalLM"]))
    common = dict(transformer_layer_config=layer, draft_vocab_size=32000, norm_before_residual=True,
                  eagle_aux_hidden_state_layer_ids=[2, 8, 13], speculators_config=spec)
    cfg = (PEagleSpeculatorConfig(mask_token_id=128002, **common) if kind == "peagle"
           else Eagle3SpeculatorConfig(**common))
    out = tmp_path / kind
    cfg.save_pretrained(out)
    return json.loads((out / "config.json").read_text())


def _launch(command: str, models: dict | None = None, engine: dict | None = None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": models or {}})
    host = {**facts, **({"engine": engine} if engine else {})}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    return facts["launch"], launch_step.check(ctx)


# vllm-project/vllm PR #32887 (P-EAGLE): `--speculative-config` with method eagle3 and parallel drafting
PEAGLE = ("vllm serve meta-llama/Llama-3.2-1B-Instruct --speculative-config '{\"method\": \"eagle3\", "
          "\"model\": \"/models/llama-1b-peagle\", \"num_speculative_tokens\": 7, \"parallel_drafting\": true}'")


def test_a_p_eagle_draft_served_as_eagle3_is_no_algorithm_mismatch(tmp_path):
    draft = _speculators_config(tmp_path, "peagle", 7)
    assert draft["speculators_model_type"] == "peagle" and draft["architectures"] == ["PEagleSpeculator"]
    launch, findings = _launch(PEAGLE, {"/models/llama-1b-peagle": {"path": "/models/llama-1b-peagle",
                                                                    "config": draft}})
    # before: SD103 error "draft checkpoint is EAGLE" (the "Eagle" in PEagleSpeculator)
    assert [f.code for f in findings] == []
    assert launch["trained_steps"] == 7  # before: None (the EAGLE-3 reader refused the peagle type)


def test_the_config_checks_read_a_p_eagle_draft_as_the_eagle3_config_it_extends(tmp_path):
    draft = _speculators_config(tmp_path, "peagle", 7)
    target = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 16,
              "hidden_size": 2048, "vocab_size": 128256, "max_position_embeddings": 131072, "rms_norm_eps": 1e-5}
    facts = configs_step.parse({"draft": {"found": True, "path": "/d", "config": draft},
                                "target": {"found": True, "path": "/t", "config": target}})
    # before: draft_error "speculators_model_type is 'peagle', not 'eagle3'" and no summary
    assert "draft_error" not in facts["configs"]
    assert facts["configs"]["draft"]["aux_layer_ids"] == (2, 8, 13)
    ctx = ProbeContext(step_id="configs", host="gpu01", args={}, facts=facts,
                       host_facts={**facts, "engine": {"name": "vllm", "version": "0.19.0"}})
    assert [f.code for f in configs_step.check(ctx) if f.severity == "error"] == []


# The failing command of vllm-project/vllm PR #44566 (EngineArgs with the draft and no K), as a server
PR_44566 = ("vllm serve unsloth/Llama-3.2-1B-Instruct --speculative-config '{\"method\": \"eagle3\", "
            "\"model\": \"nm-testing/Llama3_2_1B_speculator.eagle3\"}' --enforce-eager --max-model-len 2048")


def test_a_speculators_draft_without_k_names_the_k_it_was_exported_for(tmp_path):
    draft = _speculators_config(tmp_path, "eagle3", 3)
    _, findings = _launch(PR_44566, {"nm-testing/Llama3_2_1B_speculator.eagle3": {"path": "/d", "config": draft}})
    refused = [line for f in findings if f.code == "SD102" for line in f.evidence]
    assert len(refused) == 1
    # before: "(vLLM needs it unless the draft config supplies it)", and this draft's config does say 3
    assert "exported for 3 speculative tokens" in refused[0]
    assert 'write "num_speculative_tokens": 3' in refused[0]


# vLLM docs, features/spec_decode.md "Speculating using MLP speculators": no num_speculative_tokens
VLLM_DOCS_MLP = ('llm = LLM(\n    model="meta-llama/Meta-Llama-3.1-70B-Instruct",\n    tensor_parallel_size=4,\n'
                 '    speculative_config={\n        "model": "ibm-ai-platform/llama3-70b-accelerator",\n'
                 '        "draft_tensor_parallel_size": 1,\n    },\n)')
# ibm-ai-platform/llama3-70b-accelerator config.json (MLPSpeculator: 4 heads)
MLP_CONFIG = {"architectures": ["MLPSpeculatorPreTrainedModel"], "model_type": "mlp_speculator", "emb_dim": 8192,
              "inner_dim": 3584, "n_predict": 4, "n_candidates": 4, "top_k_tokens_per_head": [4, 3, 2, 2],
              "vocab_size": 128256, "tie_weights": True, "scale_input": True, "torch_dtype": "float16"}


def test_the_vllm_docs_mlp_speculator_takes_its_k_from_n_predict():
    launch, findings = _launch(VLLM_DOCS_MLP, {"ibm-ai-platform/llama3-70b-accelerator": {"path": "/d",
                                                                                         "config": MLP_CONFIG}})
    assert [f.code for f in findings] == []  # before: SD102 "num_speculative_tokens missing"
    assert launch["effective"]["num_steps"] == 4


@pytest.mark.parametrize("spec, k", [('{"method": "suffix"}', 24),
                                     ('{"method": "suffix", "suffix_decoding_max_tree_depth": 16}', 16)])
def test_suffix_decoding_without_k_drafts_up_to_its_tree_depth(spec, k):
    launch, findings = _launch(f"vllm serve Qwen/Qwen3-8B --speculative-config '{spec}'")
    assert [f.code for f in findings] == []  # before: SD102 "num_speculative_tokens missing"
    assert launch["effective"]["num_steps"] == k


def test_ngram_without_k_is_still_refused():
    _, findings = _launch("vllm serve Qwen/Qwen3-8B --speculative-config "
                          "'{\"method\": \"ngram\", \"prompt_lookup_max\": 4}'")
    assert [f.code for f in findings] == ["SD102"]


# https://docs.sglang.io/advanced_features/speculative_decoding.html "Ngram Speculative Decoding",
# on a paged KV cache
DOCS_NGRAM_PAGED = ("python3 -m sglang.launch_server --model Qwen/Qwen2.5-7B-Instruct --speculative-algorithm NGRAM "
                    "--speculative-num-draft-tokens 16 --speculative-ngram-max-match-window-size 12 "
                    "--speculative-ngram-max-bfs-breadth 10 --cuda-graph-max-bs 8 --mem-fraction-static 0.8 "
                    "--page-size 64 {extra}")


@pytest.mark.parametrize("extra, refused", [("--attention-backend fa3", True), ("", True),
                                            ("--attention-backend flashinfer", False)])
def test_sglang_ngram_tree_on_paged_kv_needs_flashinfer(extra, refused):
    _, findings = _launch(DOCS_NGRAM_PAGED.format(extra=extra))
    lines = [line for f in findings if f.code == "SD102" for line in f.evidence]
    assert bool(lines) is refused
    if refused:
        assert "only supported for the 'flashinfer' backend" in lines[0]


def test_sglang_ngram_breadth_one_on_paged_kv_is_fine():
    _, findings = _launch(DOCS_NGRAM_PAGED.format(extra="").replace("bfs-breadth 10", "bfs-breadth 1"))
    assert [f.code for f in findings if f.code == "SD102"] == []


def test_sglang_ngram_with_dp_attention_is_refused():
    _, findings = _launch("python3 -m sglang.launch_server --model Qwen/Qwen3-8B --speculative-algorithm NGRAM "
                          "--tp 2 --dp 2 --enable-dp-attention")
    assert any("does not support dp attention" in line for f in findings if f.code == "SD102" for line in f.evidence)


def test_a_non_integer_ngram_breadth_is_a_finding_not_a_traceback():
    # before: LaunchParseError raised out of the launch step's parse
    launch, findings = _launch("python3 -m sglang.launch_server --model Qwen/Qwen3-8B --speculative-algorithm NGRAM "
                               "--speculative-ngram-max-bfs-breadth ten")
    assert launch["found"]
    assert any("expects an integer" in line for f in findings if f.code == "SD102" for line in f.evidence)


# The SGLang docs' EAGLE-3 launch (docs/advanced_features/speculative_decoding, Llama-3.1-8B) with the
# rejection-sampling switch of sgl-project/sglang arg_groups/speculative_hook.py `_handle_eagle_family`
DOCS_EAGLE3 = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
               "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B {spec} "
               "--mem-fraction 0.6 --cuda-graph-max-bs 2 --dtype float16 --speculative-use-rejection-sampling")
LLAMA_TARGET = {"meta-llama/Llama-3.1-8B-Instruct": {"path": "/t", "config": {
    "architectures": ["LlamaForCausalLM"], "model_type": "llama", "num_hidden_layers": 32, "hidden_size": 4096}}}


@pytest.mark.parametrize("spec, refused", [
    ("--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32", "topk 8"),
    ("", "topk 4 (auto-chosen)"),  # SGLang auto-chooses (5, 4, 8) for a Llama target
    ("--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4 "
     "--speculative-accept-threshold-single 0.5", "accept-threshold-single 0.5"),
    ("--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4", None)])
def test_sglang_rejection_sampling_runs_only_the_topk_1_chain(spec, refused):
    _, findings = _launch(DOCS_EAGLE3.format(spec=spec), LLAMA_TARGET)
    lines = [line for f in findings if f.code == "SD102" for line in f.evidence]
    if refused is None:
        assert lines == []
    else:
        assert len(lines) == 1 and refused in lines[0] and "refuses to start" in lines[0]


# speculators README: a speculator is served on its own, its config naming the verifier
SERVE_SPECULATOR = "vllm serve /models/{kind}-speculator"
SPEC_LINE = ("(APIServer pid=1) INFO 10-30 12:01:0{i} [metrics.py:96] SpecDecoding metrics: Mean acceptance length: "
             "2.50, Accepted throughput: 120.00 tokens/s, Drafted throughput: 514.29 tokens/s, Accepted: 1500 tokens, "
             "Drafted: 3000 tokens, Per-position acceptance rate: 0.700, 0.500, 0.300, Avg Draft acceptance rate: 50.0%")
GEN_LINE = ("(APIServer pid=1) INFO 10-30 12:01:0{i} [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
            "Avg generation throughput: 170.0 tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.1%, "
            "Prefix cache hit rate: 0.0%")


@pytest.mark.parametrize("kind, passes", [("eagle3", 3), ("peagle", 1)])
def test_vllm_serve_of_a_speculator_runs_the_speculators_own_k(tmp_path, monkeypatch, kind, passes):
    from spec_debug.diagnose.steps import throughput_step

    draft = _speculators_config(tmp_path, kind, 3)
    command = SERVE_SPECULATOR.format(kind=kind)
    launch, findings = _launch(command, {f"/models/{kind}-speculator": {"path": "/d", "config": draft}})
    # before: no speculative settings at all (vLLM takes them from the speculator's config)
    assert (launch["target_model"], launch["algorithm"], launch["effective"]["num_steps"]) == (
        "meta-llama/Llama-3.2-1B-Instruct", "EAGLE3", 3)
    assert [f.code for f in findings] == []
    monkeypatch.setattr(throughput_step, "draft_cost", lambda host_facts: 0.1)
    facts = throughput_step.parse({"found": True, "path": "server.log", "args": {"baseline_tok_s": "100"},
                                   "lines": [line.format(i=i) for i in range(3) for line in (SPEC_LINE, GEN_LINE)]})
    ctx = ProbeContext(step_id="throughput", host="gpu01", args={}, facts=facts,
                       host_facts={"launch": launch, **facts})
    throughput_step.check(ctx)
    # before: served steps unknown and one draft pass a round for a step-by-step EAGLE-3 head
    assert facts["throughput"]["served_steps"] == 3
    assert facts["throughput"]["model"]["draft_passes"] == passes


# SGLang docs (get_started/install.md) start the server in the release image; the speculative flags are
# SafeAILab/EAGLE PR #173's (`--speculative-algo EAGLE --speculative-draft ...`, SGLang's own commands then)
SGLANG_DOCKER = ("docker run --gpus all --shm-size 32g -p 30000:30000 -v ~/.cache/huggingface:/root/.cache/huggingface "
                 "--env \"HF_TOKEN=x\" {env} --ipc=host lmsysorg/sglang:{tag} python3 -m sglang.launch_server "
                 "--model-path meta-llama/Llama-2-7b-chat-hf --host 0.0.0.0 --port 30000 {spec}")
EAGLE_PR_173 = ("--speculative-algo EAGLE --speculative-draft lmzheng/sglang-EAGLE-llama2-chat-7B "
                "--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 64 --mem-fraction 0.7")


def _sd102(command: str, engine: dict | None = None) -> list[str]:
    _, findings = _launch(command, engine=engine)
    return [line for f in findings if f.code == "SD102" for line in f.evidence]


def test_the_release_image_tag_is_the_engine_release_the_audit_judges():
    # before: the release was unknown, so the newest rules called --speculative-draft ambiguous
    old = SGLANG_DOCKER.format(env="", tag="v0.4.6.post1-cu124", spec=EAGLE_PR_173)
    assert _sd102(old) == []
    new = SGLANG_DOCKER.format(env="", tag="v0.5.6", spec=EAGLE_PR_173)
    assert any("ambiguous" in line for line in _sd102(new))
    # the host's engine facts (the probe, or --var engine_version) still come first
    assert _sd102(old, {"name": "sglang", "version": "0.5.6"}) != []


def test_spec_v2_with_a_tree_in_the_0_5_6_image_is_the_first_decode_crash():
    spec = ("--speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
            "--speculative-num-steps 5 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8")
    lines = _sd102(SGLANG_DOCKER.format(env="-e SGLANG_ENABLE_SPEC_V2=1", tag="v0.5.6", spec=spec))
    # before: a line listing what each release might do, "the engine version is unknown here"
    assert any("SGLang 0.5.6" in line and "Sizes of tensors must match" in line for line in lines)
    latest = _sd102(SGLANG_DOCKER.format(env="-e SGLANG_ENABLE_SPEC_V2=1", tag="latest", spec=spec))
    assert any("the engine version is unknown here" in line for line in latest)


def test_a_vllm_image_before_eagle3():
    # vLLM docs (deployment/docker.md) with a release tag from before EAGLE-3 (0.8.5)
    command = ("docker run --runtime nvidia --gpus all -v ~/.cache/huggingface:/root/.cache/huggingface "
               "--env \"HUGGING_FACE_HUB_TOKEN=x\" -p 8000:8000 --ipc=host vllm/vllm-openai:v0.8.4 "
               "--model meta-llama/Llama-3.1-8B-Instruct --speculative-config "
               "'{\"method\":\"eagle3\",\"model\":\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\",\"num_speculative_tokens\":3}'")
    assert any("vLLM 0.8.4 has no EAGLE-3" in line for line in _sd102(command))
    assert _sd102(command.replace("v0.8.4", "v0.10.1.1")) == []


# z-lab/Qwen3-8B-DFlash-b16 config.json (the keys the engines read to pick the drafter)
DFLASH_CONFIG = {"architectures": ["DFlashDraftModel"], "block_size": 16, "hidden_size": 4096, "num_hidden_layers": 5,
                 "model_type": "qwen3", "dflash_config": {"mask_token_id": 151669, "target_layer_ids": [1, 9, 17, 25, 33]}}


@pytest.mark.parametrize("command, mismatch", [
    # a DFlash draft launched with the EAGLE-3 flags of the SGLang docs
    ("python3 -m sglang.launch_server --model Qwen/Qwen3-8B --speculative-algorithm EAGLE3 "
     "--speculative-draft-model-path /models/qwen3-8b-block --speculative-num-steps 3 --speculative-eagle-topk 1 "
     "--speculative-num-draft-tokens 4", True),
    ("vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"eagle3\", \"model\": \"/models/qwen3-8b-block\", "
     "\"num_speculative_tokens\": 15}'", True),
    # z-lab's model card launches (sgl-project/sglang DFLASH; vLLM method dflash)
    ("python3 -m sglang.launch_server --model Qwen/Qwen3-8B --speculative-algorithm DFLASH "
     "--speculative-draft-model-path /models/qwen3-8b-block", False),
    ("vllm serve Qwen/Qwen3-8B --speculative-config '{\"method\": \"dflash\", \"model\": \"/models/qwen3-8b-block\", "
     "\"num_speculative_tokens\": 15}'", False)])
def test_a_dflash_draft_served_as_eagle3_is_an_algorithm_mismatch(command, mismatch):
    _, findings = _launch(command, {"/models/qwen3-8b-block": {"path": "/models/qwen3-8b-block", "config": DFLASH_CONFIG}})
    sd103 = [f for f in findings if f.code == "SD103"]
    # before: no SD103 (the checkpoint was "unknown": neither EAGLE nor EAGLE-3)
    assert bool(sd103) is mismatch
    if mismatch:
        assert "DFLASH" in sd103[0].remediation and "dflash" in sd103[0].remediation


def test_the_speculators_datagen_server_is_not_judged_as_a_one_step_draft():
    # the argv vllm-project/speculators scripts/launch_vllm.py execs for Qwen3-8B (36 layers)
    command = ["/opt/venv/bin/python", "-m", "vllm.entrypoints.cli.main", "serve", "Qwen/Qwen3-8B",
               "--speculative_config", json.dumps({"method": "extract_hidden_states", "num_speculative_tokens": 1,
                                                   "draft_model_config": {"hf_config": {
                                                       "eagle_aux_hidden_state_layer_ids": [2, 18, 33, 36]}}}),
               "--kv_transfer_config", json.dumps({"kv_connector": "ExampleHiddenStatesConnector",
                                                   "kv_role": "kv_producer",
                                                   "kv_connector_extra_config": {"shared_storage_path": "/tmp/hs"}}),
               "--api-server-count", "4", "--renderer-num-workers", "2"]
    _, findings = _launch("\0".join(command))
    # before: SD101 "at most one drafted token can be accepted per round"
    assert [f.code for f in findings] == ["SD004"]
    assert "extracts the target's hidden states" in findings[0].evidence[0]


@pytest.mark.parametrize("method, refused", [("EAGLE3", True), ("Eagle3", True), ("eagle3", False),
                                             ("DeepSeek_MTP", True)])
def test_a_vllm_method_in_sglang_upper_case_is_refused(method, refused):
    # vLLM validates `method` against its lower-case SpeculativeMethod names (vllm/config/speculative.py);
    # the draft and K as in the vLLM docs' EAGLE-3 example
    command = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
               f"'{{\"method\": \"{method}\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
               "\"num_speculative_tokens\": 3}'")
    lines = _sd102(command)
    # before: no finding (the audit upper-cases every method for its own use)
    assert bool(lines) is refused
    if refused:
        assert f'write "method": "{method.lower()}"' in lines[0]
