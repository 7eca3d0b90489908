"""Launch-command parsing on real command lines copied from the engines' docs and issues."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import (
    LaunchParseError,
    effective_spec,
    parse_launch_command,
    split_command,
    tree_capacity,
)

# SGLang docs, "Speculative Decoding" / EAGLE-3 decoding example
# (https://docs.sglang.ai/advanced_features/speculative_decoding.html): note `--model` (alias of
# --model-path) and `--mem-fraction` (an argparse prefix of --mem-fraction-static).
SGLANG_DOCS_EAGLE3 = """python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct  --speculative-algorithm EAGLE3 \\
    --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 \\
        --speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --mem-fraction 0.6 \\
        --cuda-graph-max-bs 2 --dtype float16"""

# speculators docs, "Serve in vLLM", long form (multi-line JSON in single quotes)
# (https://docs.vllm.ai/projects/speculators/en/stable/user_guide/tutorials/serve_vllm/)
SPECULATORS_DOCS_VLLM = """vllm serve Qwen/Qwen3-8B \\
  -tp 1 \\
  --speculative-config '{
    "model": "RedHatAI/Qwen3-8B-speculator.eagle3",
    "num_speculative_tokens": 3,
    "method": "eagle3"
  }'"""

# vLLM PR #24127 test plan: underscore flag spelling and JSON with escaped double quotes
# (https://github.com/vllm-project/vllm/pull/24127)
VLLM_PR_24127 = r"""vllm serve facebook/opt-125m \
  --swap-space 16 \
  --disable-log-requests \
  --host :: \
  --dtype float16 \
  --speculative_config \
    "{\"method\":\"ngram\",\"num_speculative_tokens\":5,\"prompt_lookup_min\":5,\"prompt_lookup_max\":10}" \
  2>&1 | tee /data/users/$USER/logs/vllm_serving.log"""

# vLLM v0.10.0 docs, features/spec_decode.md, online mode with the API server module
# (https://raw.githubusercontent.com/vllm-project/vllm/v0.10.0/docs/features/spec_decode.md)
VLLM_DOCS_API_SERVER = """python -m vllm.entrypoints.openai.api_server \\
    --host 0.0.0.0 \\
    --port 8000 \\
    --model facebook/opt-6.7b \\
    --seed 42 \\
    -tp 1 \\
    --gpu_memory_utilization 0.8 \\
    --speculative_config '{"model": "facebook/opt-125m", "num_speculative_tokens": 5}'"""

# vLLM v0.7.1 docs, features/spec_decode.md: the V0 flags before --speculative-config
# (https://docs.vllm.ai/en/v0.7.1/features/spec_decode.html)
VLLM_DOCS_V071 = """python -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8000 --model facebook/opt-6.7b \\
    --seed 42 -tp 1 --speculative_model facebook/opt-125m --use-v2-block-manager \\
    --num_speculative_tokens 5"""

# vLLM PR #34552 test plan: `-sc` is not used there but `-tp 8 -ep` bare switch before the JSON
# (https://github.com/vllm-project/vllm/pull/34552)
VLLM_PR_34552 = """vllm serve zai-org/GLM-5-FP8 \\
    -tp 8 -ep \\
    --speculative-config '{"method": "mtp", "num_speculative_tokens": 3}' \\
    --no-enable-prefix-caching"""

# The incident's command (INCIDENT.md): num-steps 1 on Kimi-K2.5, `=`-joined forms, env prefix.
INCIDENT = ("SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --model-path=/models/Kimi-K2.5 "
            "--tp=8 --speculative-algorithm=EAGLE3 --speculative-draft-model-path /ckpt/k25-eagle3 "
            "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 "
            "--context-length 131072 --trust-remote-code")


def test_sglang_docs_example():
    cfg = parse_launch_command(SGLANG_DOCS_EAGLE3)
    assert cfg.engine == "sglang"
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.draft_model == "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", 5, 8, 32)
    assert cfg.dtype == "float16" and cfg.flags["mem-fraction"] == "0.6"
    eff = effective_spec(cfg)
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens) == (5, 8, 32)
    assert eff.tree_capacity == 8 + 4 * 64 and not eff.problems and not eff.overrides


def test_speculators_docs_multiline_json():
    cfg = parse_launch_command(SPECULATORS_DOCS_VLLM)
    assert (cfg.engine, cfg.target_model, cfg.tp) == ("vllm", "Qwen/Qwen3-8B", 1)
    assert cfg.draft_model == "RedHatAI/Qwen3-8B-speculator.eagle3"
    assert (cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("EAGLE3", 3, 1, 4)
    assert effective_spec(cfg).num_draft_tokens == 4


def test_vllm_escaped_json_and_underscore_flag():
    cfg = parse_launch_command(VLLM_PR_24127)
    assert cfg.target_model == "facebook/opt-125m" and cfg.dtype == "float16"
    assert cfg.speculative_config == {"method": "ngram", "num_speculative_tokens": 5,
                                      "prompt_lookup_min": 5, "prompt_lookup_max": 10}
    assert cfg.algorithm == "NGRAM" and cfg.flags["host"] == "::"


def test_vllm_api_server_module():
    cfg = parse_launch_command(VLLM_DOCS_API_SERVER)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.num_steps) == (
        "vllm", "facebook/opt-6.7b", "facebook/opt-125m", 5)
    assert cfg.algorithm is None  # no method: vLLM infers a draft model


def test_vllm_v0_flags():
    cfg = parse_launch_command(VLLM_DOCS_V071)
    assert (cfg.draft_model, cfg.num_steps, cfg.num_draft_tokens, cfg.tp) == ("facebook/opt-125m", 5, 6, 1)
    assert cfg.flags["use-v2-block-manager"] is True


def test_vllm_bare_switch_before_json():
    cfg = parse_launch_command(VLLM_PR_34552)
    assert cfg.tp == 8 and cfg.flags["ep"] is True and cfg.algorithm == "MTP" and cfg.num_steps == 3
    short = parse_launch_command(["vllm", "serve", "m", "-sc", '{"method":"eagle3","model":"d","num_speculative_tokens":2}'])
    assert short.num_draft_tokens == 3 and short.draft_model == "d"


def test_incident_command_with_env_and_equals_forms():
    cfg = parse_launch_command(INCIDENT)
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    assert (cfg.target_model, cfg.tp, cfg.context_length) == ("/models/Kimi-K2.5", 8, 131072)
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (1, 1, 2)
    assert cfg.flags["trust-remote-code"] is True


def test_proc_cmdline_nul_separated_and_sglang_serve():
    raw = "/usr/bin/python3\0-m\0sglang.launch_server\0--model-path\0/m\0--speculative-num-steps\0003\0"
    assert split_command(raw)[:3] == ["/usr/bin/python3", "-m", "sglang.launch_server"]
    assert parse_launch_command(raw).num_steps == 3
    cfg = parse_launch_command("sglang serve --model-path /m --speculative-algorithm eagle3")
    assert (cfg.engine, cfg.algorithm) == ("sglang", "EAGLE3")


def test_sglang_engine_rules():
    # topk 1: draft tokens are forced to steps + 1 (server_args.py)
    eff = effective_spec(parse_launch_command(
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
        "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8"))
    assert eff.num_draft_tokens == 4 and "overwritten to 4" in eff.overrides[0]
    # nothing set: auto-choose by architecture
    base = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"
    assert effective_spec(parse_launch_command(base)).num_draft_tokens == 8
    dsk = effective_spec(parse_launch_command(base), target_architecture="DeepseekV3ForCausalLM")
    assert (dsk.num_steps, dsk.topk, dsk.num_draft_tokens, dsk.auto_chosen) == (3, 1, 4, True)
    # only draft tokens set: the auto-choose assertion
    bad = effective_spec(parse_launch_command(base + " --speculative-num-draft-tokens 4"))
    assert bad.problems and "AssertionError" in bad.problems[0]
    # tree too small for the budget: topk 2, steps 2 hold 2 + 4 = 6 nodes, 10 tokens need 9
    tree = effective_spec(parse_launch_command(
        base + " --speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 10"))
    assert tree.tree_capacity == 6 and "offer only 6" in tree.problems[0]
    assert tree_capacity(5, 8) == 264


def test_bad_input_is_one_clear_error():
    with pytest.raises(LaunchParseError, match="not an SGLang or vLLM"):
        parse_launch_command("python train.py --lr 1e-4")
    with pytest.raises(LaunchParseError, match="not valid JSON"):
        parse_launch_command("vllm serve m --speculative-config {method:eagle3}")
    with pytest.raises(LaunchParseError, match="cannot split"):
        parse_launch_command("vllm serve m --speculative-config '{")
    with pytest.raises(LaunchParseError, match="expects an integer"):
        parse_launch_command("sglang serve --model-path m --speculative-num-steps three")


def test_shell_tail_is_not_part_of_the_server_argv():
    argv = split_command(VLLM_PR_24127)
    assert argv[-1].startswith("{") and "tee" not in argv and "2>&1" not in argv


# Version rules below were read from the sglang wheels on PyPI (server_args.py, from 0.5.16
# arg_groups/speculative_hook.py); each case is the first release on either side of a change.
SGLANG_EAGLE3 = "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3"


def test_sglang_auto_choice_follows_the_release():
    base = parse_launch_command(SGLANG_EAGLE3)
    qwen = "Qwen3ForCausalLM"

    def chosen(arch, version):
        eff = effective_spec(base, target_architecture=arch, engine_version=version)
        assert eff.auto_chosen and not eff.problems
        return eff.num_steps, eff.topk, eff.num_draft_tokens

    assert chosen(qwen, "0.5.7") == (5, 4, 8)  # unlisted targets kept (5, 4, 8) until 0.5.8
    assert chosen(qwen, "0.5.8") == (3, 1, 4)
    assert chosen(qwen, None) == (3, 1, 4)
    assert chosen(DEEPSEEK_V3, "0.4.6") == (5, 4, 8)  # one default for all in 0.4.6
    assert chosen(DEEPSEEK_V3, "0.4.7") == (3, 1, 4)
    assert chosen("LlamaForCausalLM", "latest") == (5, 4, 8)
    unknown = effective_spec(base)
    assert (unknown.num_steps, unknown.num_draft_tokens) == (5, 8)
    assert "(3, 1, 4) for targets other than Llama" in unknown.overrides[0]


DEEPSEEK_V3 = "DeepseekV3ForCausalLM"


def test_topk_one_without_draft_tokens_is_filled_in_not_rejected():
    # SGLang sets draft tokens to steps + 1 for topk 1 whether they were given or not
    eff = effective_spec(parse_launch_command(
        SGLANG_EAGLE3 + " --speculative-num-steps 3 --speculative-eagle-topk 1"))
    assert (eff.num_draft_tokens, eff.problems) == (4, [])
    assert "unset is overwritten to 4" in eff.overrides[0]
    # topk missing: `speculative_eagle_topk > 1` fails on None at startup
    no_topk = effective_spec(parse_launch_command(SGLANG_EAGLE3 + " --speculative-num-steps 3"))
    assert no_topk.problems and "--speculative-eagle-topk is not" in no_topk.problems[0]
    tree = effective_spec(parse_launch_command(
        SGLANG_EAGLE3 + " --speculative-num-steps 3 --speculative-eagle-topk 4"))
    assert tree.problems and "needs --speculative-num-draft-tokens" in tree.problems[0]


def test_page_size_backends_by_release_and_only_when_chosen():
    tree = SGLANG_EAGLE3 + (" --speculative-num-steps 3 --speculative-eagle-topk 4"
                            " --speculative-num-draft-tokens 8 --page-size 16")
    # no --attention-backend: SGLang resolves one itself, nothing to judge here
    assert effective_spec(parse_launch_command(tree)).problems == []
    fa3 = parse_launch_command(tree + " --attention-backend fa3")
    assert "flashinfer attention backend (got fa3)" in effective_spec(
        fa3, engine_version="0.5.5").problems[0]
    assert effective_spec(fa3, engine_version="0.5.6").problems == []
    triton = parse_launch_command(tree + " --attention-backend triton")
    assert effective_spec(triton, engine_version="0.5.12.post1").problems
    assert effective_spec(triton, engine_version="0.5.13").problems == []
    assert effective_spec(parse_launch_command(tree + " --attention-backend flashmla")).problems


def test_trtllm_mha_as_decode_backend_rejects_a_tree():
    eff = effective_spec(parse_launch_command(
        SGLANG_EAGLE3 + " --speculative-num-steps 3 --speculative-eagle-topk 4"
        " --speculative-num-draft-tokens 8 --decode-attention-backend trtllm_mha"))
    assert eff.problems == ["the trtllm_mha attention backend only supports topk 1: SGLang refuses to start "
                            "(\"ValueError: trtllm_mha backend only supports topk = 1 for speculative decoding.\"; "
                            "use --speculative-eagle-topk 1 or another attention backend)"]


def test_flags_in_a_config_file_are_named_not_silently_missed():
    from spec_debug.diagnose.steps import launch_step
    from spec_debug.probes.registry import ProbeContext

    # vLLM docs, configuration/serve_args.md: `vllm serve --config config.yaml`, the YAML's keys
    # are flags (speculative-config among them); SGLang's `--config` works the same way
    facts = launch_step.parse({"cmdline": "vllm serve SOME_MODEL --config config.yaml", "source": "server_cmdline var"})
    ctx = ProbeContext(step_id="s", host="h", args={}, facts=facts, host_facts=facts, vars={})
    [finding] = launch_step.check(ctx)
    assert finding.code == "SD004" and "--config config.yaml" in finding.evidence[0]
    plain = launch_step.parse({"cmdline": "vllm serve SOME_MODEL", "source": "server_cmdline var"})
    assert launch_step.check(ProbeContext(step_id="s", host="h", args={}, facts=plain, host_facts=plain, vars={})) == []


def test_sglang_auto_choice_list_grew_release_by_release():
    # auto_choose_speculative_params in each sglang wheel: the (3, 1, 4) list before 0.5.8
    base = parse_launch_command(SGLANG_EAGLE3)

    def chosen(arch, version):
        eff = effective_spec(base, target_architecture=arch, engine_version=version)
        return eff.num_steps, eff.topk, eff.num_draft_tokens

    assert chosen("GptOssForCausalLM", "0.4.10.post2") == (5, 4, 8)
    assert chosen("GptOssForCausalLM", "0.5.1") == (3, 1, 4)
    assert chosen("BailingMoeV2ForCausalLM", "0.5.2") == (5, 4, 8)
    assert chosen("BailingMoeV2ForCausalLM", "0.5.3") == (3, 1, 4)
    # GLM-4.5/4.6 (Glm4MoeForCausalLM) joined in a post release
    assert chosen("Glm4MoeForCausalLM", "0.5.6") == (5, 4, 8)
    assert chosen("Glm4MoeForCausalLM", "0.5.6.post1") == (3, 1, 4)
    assert chosen("MiMoV2FlashForCausalLM", "0.5.6.post2") == (5, 4, 8)
    assert chosen("MiMoV2FlashForCausalLM", "0.5.7") == (3, 1, 4)


def test_page_size_backend_rule_starts_in_0_5_2():
    # before 0.5.2 server_args.py had no topk > 1 / page_size > 1 backend check at all
    tree = parse_launch_command(SGLANG_EAGLE3 + " --speculative-num-steps 3 --speculative-eagle-topk 4"
                                " --speculative-num-draft-tokens 8 --page-size 16 --attention-backend fa3")
    assert effective_spec(tree, engine_version="0.5.1.post3").problems == []
    assert effective_spec(tree, engine_version="0.5.2").problems
