"""Hardening 6: the built-in diagnostics on real launch lines, configs and server processes.

Each test is a user story that spec-debug got wrong before (a traceback, a false or missed
finding, or a misleading message); the source of every input is cited where it is built.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from spec_debug.diagnose.checks.launch_flags import check_num_steps
from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command
from spec_debug.diagnose.serverlog import parse_server_log
from spec_debug.diagnose.steps import engine_step, launch_step, throughput_step
from spec_debug.probes import engine_info
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.fake_servers import server_process


def context(facts: dict, host_facts: dict | None = None) -> ProbeContext:
    return ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                        host_facts={**(host_facts or {}), **facts})


def codes(findings) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in findings]


# ---------------------------------------------------------------------------------------------
# vLLM num_speculative_tokens written as a float
# ---------------------------------------------------------------------------------------------
# The vLLM docs' EAGLE command (docs/features/spec_decode.md, "Speculating using EAGLE based
# draft models"), with its JSON produced by a tool from a YAML file: yaml.safe_load reads
# `num_speculative_tokens: 1.0` as a float and json.dumps writes it back as 1.0.
VLLM_DOCS_EAGLE = ("vllm serve meta-llama/Meta-Llama-3-8B-Instruct --seed 42 -tp 1 "
                   "--speculative-config {spec}")
DEPLOY_YAML = """\
speculative_config:
  model: yuhuili/EAGLE-LLaMA3-Instruct-8B
  draft_tensor_parallel_size: 1
  num_speculative_tokens: {k}
  method: eagle
"""


def vllm_command(k: str) -> str:
    spec = __import__("yaml").safe_load(DEPLOY_YAML.format(k=k))["speculative_config"]
    return VLLM_DOCS_EAGLE.format(spec=shlex.quote(json.dumps(spec)))


def test_vllm_integral_float_token_count_is_read_like_vllms_pydantic_config():
    # SpeculativeConfig.num_speculative_tokens is `int = Field(gt=0)` in a non-strict pydantic
    # dataclass (vllm/config/speculative.py, vllm/config/utils.py `config`): 1.0 is 1.
    cfg = parse_launch_command(vllm_command("1.0"))
    assert (cfg.num_steps, cfg.num_draft_tokens) == (1, 2)
    # so the one-token cap is found (before: the command was refused, SD101 missed)
    assert codes(check_num_steps(cfg, effective_spec(cfg), trained_steps=3)) == [("SD101", "error")]
    dotted = parse_launch_command("vllm serve m --speculative-config.method eagle3 "
                                  "--speculative-config.model d --speculative-config.num_speculative_tokens 3.0")
    assert (dotted.num_steps, effective_spec(dotted).num_draft_tokens) == (3, 4)


@pytest.mark.parametrize("k, words", [("1.5", "whole number"), ("0", "greater than 0"), ("-2", "greater than 0")])
def test_vllm_token_counts_vllm_refuses_get_one_clear_message(k, words):
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(vllm_command(k))
    message = str(caught.value)
    assert words in message and "num_speculative_tokens" in message and "Traceback" not in message


def test_vllm_refused_token_count_is_an_error_in_the_audit():
    # vLLM does not start on it: SD102 at error severity (hardening69), no longer an SD004 line
    facts = launch_step.parse({"source": "var", "cmdline": vllm_command("1.5"), "models": {}})
    [line] = launch_step.check(context(facts))
    assert (line.code, line.severity) == ("SD102", "error") and "whole number" in line.evidence[0]


# ---------------------------------------------------------------------------------------------
# MTP targets: the draft is the target's own next-n module
# ---------------------------------------------------------------------------------------------
# deepseek-ai/DeepSeek-R1 config.json (same layout as DeepSeek-V3-0324's): one MTP module.
DEEPSEEK_V3_CONFIG = {
    "architectures": ["DeepseekV3ForCausalLM"], "attention_bias": False, "attention_dropout": 0.0,
    "bos_token_id": 0, "eos_token_id": 1, "ep_size": 1, "first_k_dense_replace": 3,
    "hidden_act": "silu", "hidden_size": 7168, "initializer_range": 0.02, "intermediate_size": 18432,
    "kv_lora_rank": 512, "max_position_embeddings": 163840, "model_type": "deepseek_v3",
    "moe_intermediate_size": 2048, "moe_layer_freq": 1, "n_group": 8, "n_routed_experts": 256,
    "n_shared_experts": 1, "norm_topk_prob": True, "num_attention_heads": 128,
    "num_experts_per_tok": 8, "num_hidden_layers": 61, "num_key_value_heads": 128,
    "num_nextn_predict_layers": 1, "q_lora_rank": 1536, "qk_nope_head_dim": 128,
    "qk_rope_head_dim": 64,
    "quantization_config": {"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8",
                            "weight_block_size": [128, 128]},
    "rms_norm_eps": 1e-06,
    "rope_scaling": {"beta_fast": 32, "beta_slow": 1, "factor": 40, "mscale": 1.0, "mscale_all_dim": 1.0,
                     "original_max_position_embeddings": 4096, "type": "yarn"},
    "rope_theta": 10000, "routed_scaling_factor": 2.5, "scoring_func": "sigmoid",
    "tie_word_embeddings": False, "topk_group": 4, "topk_method": "noaux_tc", "torch_dtype": "bfloat16",
    "transformers_version": "4.46.3", "use_cache": True, "v_head_dim": 128, "vocab_size": 129280,
}
# sgl-project/sglang scripts/export_deepseek_nextn.py writes the target config with
# num_hidden_layers 1 and architectures DeepseekV3ForCausalLMNextN (lmsys/DeepSeek-V3-0324-NextN).
NEXTN_CONFIG = {**DEEPSEEK_V3_CONFIG, "num_hidden_layers": 1, "architectures": ["DeepseekV3ForCausalLMNextN"]}
TARGET = "deepseek-ai/DeepSeek-V3-0324"
# sgl-project/sglang docs/basic_usage/deepseek.md, "Multi-token Prediction": SGLang sets the
# draft path to the target itself (server_args.py `_handle_speculative_decoding`).
SGLANG_DEEPSEEK_MTP = (f"python3 -m sglang.launch_server --model-path {TARGET} --speculative-algorithm EAGLE "
                       "--speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 "
                       "--trust-remote-code --tp 8")
# the same page before the draft path became automatic
SGLANG_DEEPSEEK_NEXTN_DRAFT = (f"python3 -m sglang.launch_server --model-path {TARGET} --speculative-algorithm EAGLE "
                               "--speculative-draft-model-path lmsys/DeepSeek-V3-0324-NextN "
                               "--speculative-num-steps 1 --speculative-eagle-topk 1 "
                               "--speculative-num-draft-tokens 2 --trust-remote-code --tp 8")
# The vLLM-Ascend DeepSeek-V3 MTP command (its docs, "MTP ... Pass via --speculative-config"),
# with the target renamed to the -0324 checkpoint: method deepseek_mtp, no draft model, so vLLM
# loads the draft from the target (vllm/config/speculative.py `__post_init__`).
VLLM_DEEPSEEK_MTP = f"""python -m vllm.entrypoints.openai.api_server \\
  --model {TARGET} \\
  --trust-remote-code \\
  --quantization ascend \\
  --tensor-parallel-size 8 \\
  --speculative-config '{{"method": "deepseek_mtp", "num_speculative_tokens": 1}}' \\
  2>&1 | tee serve_deepseek_v3_mtp.log"""

MODELS = {TARGET: {"path": "/models/DeepSeek-V3-0324", "config": DEEPSEEK_V3_CONFIG},
          "lmsys/DeepSeek-V3-0324-NextN": {"path": "/models/DeepSeek-V3-0324-NextN", "config": NEXTN_CONFIG}}


@pytest.mark.parametrize("command", [SGLANG_DEEPSEEK_MTP, SGLANG_DEEPSEEK_NEXTN_DRAFT, VLLM_DEEPSEEK_MTP,
                                     SGLANG_DEEPSEEK_MTP.replace("EAGLE ", "NEXTN ")])
def test_one_step_on_a_one_module_mtp_target_is_served_as_trained(command):
    # DeepSeek-V3 ships one MTP module: one speculative step is what it was trained for, and
    # the docs' own command. Before: an SD101 warning "the draft config does not say".
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": MODELS})
    assert facts["launch"]["trained_steps"] == 1
    assert launch_step.check(context(facts)) == []
    # the MTP target is not passed on as an EAGLE draft to the layer/vocab steps
    assert facts["resolved_draft_model"] in ("", "/models/DeepSeek-V3-0324-NextN")


def test_draft_checks_on_an_mtp_server_say_they_do_not_apply_instead_of_asking_for_a_draft():
    from spec_debug.diagnose.steps import configs_step, vocab_step

    launch = launch_step.parse({"source": "var", "cmdline": VLLM_DEEPSEEK_MTP, "models": MODELS})
    # the playbook passes the resolved draft on: none, the MTP module is inside the target
    configs = configs_step.parse({"draft": {"name": "", "found": False},
                                  "target": {"found": True, "path": "/models/DeepSeek-V3-0324",
                                             "config": DEEPSEEK_V3_CONFIG}})
    vocab = vocab_step.parse({"skipped": "no draft checkpoint: pass --var draft_model=DIR "
                                         "(or a server command naming it)"})
    for step, facts in ((configs_step, configs), (vocab_step, vocab)):
        [line] = step.check(context(facts, launch))
        assert line.code == "SD004" and "MTP module" in line.evidence[0]
        assert "draft_model=DIR" not in line.title  # before: asked for a draft that does not exist


def test_mtp_target_whose_config_is_missing_says_what_is_unknown():
    facts = launch_step.parse({"source": "var", "cmdline": SGLANG_DEEPSEEK_MTP, "models": {}})
    [finding] = launch_step.check(context(facts))
    assert (finding.code, finding.severity) == ("SD101", "warning")
    assert "MTP modules" in finding.evidence[-1] and "num_nextn_predict_layers" in finding.evidence[-1]


def test_mtp_depth_is_read_from_a_qwen35_text_config():
    # Qwen/Qwen3.5 config.json: the MTP count is text_config.mtp_num_hidden_layers (vLLM reads
    # it as n_predict, vllm/config/speculative.py hf_config_override)
    qwen35 = {"architectures": ["Qwen3_5MoeForConditionalGeneration"], "model_type": "qwen3_5_moe",
              "text_config": {"model_type": "qwen3_5_moe_text", "num_hidden_layers": 48,
                              "mtp_num_hidden_layers": 1, "mtp_use_dedicated_embeddings": False}}
    assert launch_step.mtp_layers(qwen35) == 1
    command = ("vllm serve Qwen/Qwen3.5-35B-A3B --speculative-config "
               """'{"method": "mtp", "num_speculative_tokens": 1}'""")
    facts = launch_step.parse({"source": "var", "cmdline": command,
                               "models": {"Qwen/Qwen3.5-35B-A3B": {"path": "/m", "config": qwen35}}})
    assert facts["launch"]["trained_steps"] == 1 and launch_step.check(context(facts)) == []


# ---------------------------------------------------------------------------------------------
# engine_info: the version the server runs, not the probe's Python's
# ---------------------------------------------------------------------------------------------
# The engine's first draft layer as EAGLE3.md section 2 reports SGLang's llama_eagle3.py
# (written for these tests): the embedding first in the cat, no norm flags.
ENGINE_LAYER = (
    "import torch\n\n\nclass LlamaDecoderLayer(torch.nn.Module):\n"
    "    def forward(self, positions, embeds, hidden_states, forward_batch, residual):\n"
    "        return torch.cat([self.input_layernorm(embeds), self.hidden_norm(hidden_states)], dim=-1)\n")


@pytest.fixture(scope="module")
def server_venv(tmp_path_factory) -> Path:
    """A real venv (no pip) that holds sglang 0.5.4's metadata, as a serving venv would; the
    probe's own Python has no sglang."""
    root = tmp_path_factory.mktemp("serving") / "ml-env"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root)], check=True)
    python = root / "bin" / "python"
    purelib = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  capture_output=True, text=True, check=True).stdout.strip())
    (purelib / "sglang" / "srt" / "models").mkdir(parents=True)
    (purelib / "sglang" / "__init__.py").write_text("")
    (purelib / "sglang" / "srt" / "models" / "llama_eagle3.py").write_text(ENGINE_LAYER)
    (purelib / "sglang-0.5.4.dist-info").mkdir()
    (purelib / "sglang-0.5.4.dist-info" / "METADATA").write_text(
        "Metadata-Version: 2.1\nName: sglang\nVersion: 0.5.4\n")
    return root


def sglang_server(python: str, *flags: str) -> list[str]:
    return [python, "-c", "import time; time.sleep(30)", "-m", "sglang.launch_server", *flags]


EAGLE3_FLAGS = ("--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3")


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_engine_version_comes_from_the_servers_venv_interpreter(server_venv):
    assert engine_info.package_info("sglang") is None  # the probe's Python has none
    with server_process(sglang_server(str(server_venv / "bin" / "python"), *EAGLE3_FLAGS)) as process:
        server = engine_info.server_packages(process)
    # argv[0], not /proc/PID/exe: the venv's python is a symlink to the base interpreter
    assert server["python"] == str(server_venv / "bin" / "python")
    assert server["packages"]["sglang"]["version"] == "0.5.4"
    host = {**engine_info.run({}), "server": server, "args": {"launch_engine": "sglang"}}
    facts = engine_step.parse(host)
    assert (facts["engine"]["name"], facts["engine"]["version"]) == ("sglang", "0.5.4")
    assert str(server_venv) in facts["engine"]["version_source"]
    assert engine_step.check(context(facts)) == []


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_a_bare_python_argv0_is_found_on_the_servers_path(server_venv):
    # `source ~/ml-env/bin/activate && python -m sglang.launch_server ...`: argv[0] is "python"
    env = {**os.environ, "PATH": f"{server_venv / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}"}
    with server_process(sglang_server("python", *EAGLE3_FLAGS), env=env) as process:
        server = engine_info.server_packages(process)
    assert server["python"] == str(server_venv / "bin" / "python")
    assert server["packages"]["sglang"]["version"] == "0.5.4"


def test_an_unreadable_server_interpreter_is_a_clear_note(tmp_path):
    # another user's server: its cmdline is world-readable, its exe and environ are not
    (tmp_path / "4242").mkdir()
    server = engine_info.server_packages({"pid": 4242, "argv": ["sglang-serve-wrapper", "--port", "30000"]},
                                         proc=tmp_path)
    assert server["packages"] is None and "cannot tell which interpreter" in server["note"]
    facts = engine_step.parse({"python_executable": "/usr/bin/python3", "packages": {}, "server": server,
                               "args": {"launch_engine": "sglang"}})
    [line] = engine_step.check(context(facts))
    assert line.code == "SD004" and "the server's interpreter was not read" in line.evidence[0]
    assert "pid 4242" in line.evidence[0]


# ---------------------------------------------------------------------------------------------
# Throughput numbers as people give them
# ---------------------------------------------------------------------------------------------

# sgl-project/sglang PR #4247 (EAGLE-3 support), chromecast56's benchmark output: the summary
# line of benchmark/mtbench/bench_sglang_eagle.py, numbers mid-line.
MTBENCH_OUTPUT = """\
100%|██████████| 80/80 [00:59<00:00,  1.35it/s]
#questions: 80, Throughput: 378.57 token/s, Acceptance length: 5.39
"""


def test_sglang_mtbench_summary_gives_throughput_and_accept_length():
    stats = parse_server_log(MTBENCH_OUTPUT)
    assert (stats.measured_tok_s, stats.accept_length) == (378.57, 5.39)
    # it reaches the throughput step through the server_log probe's markers
    from spec_debug.probes.server_log import MARKERS
    kept = [line for line in MTBENCH_OUTPUT.splitlines() if any(m in line for m in MARKERS)]
    facts = throughput_step.parse({"found": True, "path": "mtbench.log", "lines": kept,
                                   "args": {"baseline_tok_s": "158.34"}})
    assert facts["throughput"]["measured_tok_s"] == 378.57
    assert facts["throughput"]["log"]["accept_length"] == 5.39


def throughput_findings(args: dict) -> list:
    facts = throughput_step.parse({"found": False, "path": None, "lines": [], "args": args})
    return throughput_step.check(context(facts))


def test_tok_s_with_a_unit_is_read_and_the_regression_found():
    # INCIDENT.md: ~54.8 tok/s with the EAGLE-3 draft against a 90 tok/s baseline, as typed
    found = throughput_findings({"baseline_tok_s": "90 tok/s", "measured_tok_s": "54.8 tok/s"})
    assert codes(found) == [("SD501", "error")]
    assert "0.61x" in found[0].evidence[1]


@pytest.mark.parametrize("value, words", [("0", "not a positive throughput"), ("0.00", "not a positive throughput"),
                                          ("178,86", "not a number"), ("fast", "not a number")])
def test_an_unusable_baseline_says_so_instead_of_going_silent(value, words):
    # a baseline of 0 (a benchmark whose requests all failed) used to disable SD501 without a word
    found = throughput_findings({"baseline_tok_s": value, "measured_tok_s": "54.8"})
    assert codes(found) == [("SD004", "info")]
    assert words in found[0].evidence[0] and repr(value) in found[0].evidence[0]


# ---------------------------------------------------------------------------------------------
# SD104 is an SGLang problem only
# ---------------------------------------------------------------------------------------------
def test_fp16_draft_next_to_bf16_target_is_flagged_on_sglang_not_on_vllm():
    from spec_debug.diagnose.checks.launch_flags import check_dtype

    # SpecForge issue #348: a float16 SpecForge draft for meta-llama/Llama-3.1-8B-Instruct
    # (torch_dtype bfloat16); SGLang loads each in its own dtype and fails in graph capture.
    draft = {"architectures": ["LlamaForCausalLMEagle3"], "model_type": "llama", "torch_dtype": "float16",
             "hidden_size": 4096, "draft_vocab_size": 32000, "vocab_size": 128256}
    target = {"architectures": ["LlamaForCausalLM"], "model_type": "llama", "torch_dtype": "bfloat16"}
    sglang = parse_launch_command(
        "python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
        "--speculative-draft-model-path ./outputs/llama3-8b-eagle3 --speculative-num-steps 3 "
        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert codes(check_dtype(sglang, draft, target)) == [("SD104", "warning")]
    # vLLM builds the draft's ModelConfig with dtype=target_model_config.dtype
    # (vllm/config/speculative.py): no mismatch can happen, before it was a false SD104
    vllm = parse_launch_command(
        "vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        """'{"method": "eagle3", "model": "./outputs/llama3-8b-eagle3", "num_speculative_tokens": 3}'""")
    assert check_dtype(vllm, draft, target) == []


def test_a_containerised_server_is_not_asked_through_this_hosts_interpreter(tmp_path):
    # `docker run ... lmsysorg/sglang python3 -m sglang.launch_server ...` seen from the host:
    # /usr/bin/python3 exists here too, but it is not the container's (no sglang, or another one)
    (tmp_path / "4242" / "ns").mkdir(parents=True)
    (tmp_path / "self" / "ns").mkdir(parents=True)
    os.symlink("mnt:[4026532511]", tmp_path / "4242" / "ns" / "mnt")
    os.symlink("mnt:[4026531840]", tmp_path / "self" / "ns" / "mnt")
    server = engine_info.server_packages({"pid": 4242, "argv": ["/usr/bin/python3", "-m", "sglang.launch_server",
                                                                "--model-path", "Qwen/Qwen3-8B"]}, proc=tmp_path)
    assert server["packages"] is None and "container" in server["note"]


# ---------------------------------------------------------------------------------------------
# vLLM's human-readable --max-model-len
# ---------------------------------------------------------------------------------------------
# The docker_args of a public nvidia/DeepSeek-R1-FP4 deployment template, joined as `vllm serve`
# runs them: --max-model-len 128k next to an MTP speculative config.
DEEPSEEK_R1_FP4_ARGS = [
    "--model nvidia/DeepSeek-R1-FP4", "--port 8000", "--trust-remote-code", "--tensor-parallel-size 4",
    "--enable-expert-parallel", "--max-model-len 128k", "--max-num-batched-tokens 32k",
    "--calculate-kv-scales", "--enable-prefix-caching", "--api-server-count 4",
    "--speculative-config '{\"method\":\"deepseek_mtp\",\"num_speculative_tokens\":3}'",
    "--reasoning-parser deepseek_r1", "--enable-eplb",
]


def test_human_readable_max_model_len_is_read_as_vllm_reads_it():
    # before: "vllm: --max-model-len expects an integer, got '128k'" and no audit at all
    cfg = parse_launch_command("vllm serve " + " ".join(DEEPSEEK_R1_FP4_ARGS))
    assert (cfg.context_length, cfg.algorithm, cfg.num_steps, cfg.tp) == (128_000, "DEEPSEEK_MTP", 3, 4)
    # vllm-project/vllm issue launch line: upper-case suffixes are binary (human_readable_int)
    issue = parse_launch_command(
        "VLLM_MOE_DEEP_GEMM=0 vllm serve /mnt/models --served-model-name deepseek-ai/DeepSeek-V3 -tp 16 -dcp 16 "
        "--enable-expert-parallel --all2all-backend deepep_low_latency --distributed-executor-backend ray "
        "--async-scheduling --max-model-len 128K --max-num-batched-tokens 16K --max-num-seqs 32")
    assert issue.context_length == 131_072 and issue.env == {"VLLM_MOE_DEEP_GEMM": "0"}
    assert parse_launch_command("vllm serve m --max-model-len auto").context_length is None
    with pytest.raises(LaunchParseError, match="32k or 32K"):
        parse_launch_command("vllm serve m --max-model-len 1.5K")  # vLLM refuses decimals with binary suffixes


# ---------------------------------------------------------------------------------------------
# SGLang's request cap on speculative servers
# ---------------------------------------------------------------------------------------------
# sglang.bench_serving's summary as printed in sgl-project/sglang PR #17098 (Qwen3-8B, EAGLE3),
# run here with --max-concurrency 64 against the same server (the other numbers as printed).
BENCH_AT_64 = """\
============ Serving Benchmark Result ============
Backend:                                 sglang
Traffic request rate:                    inf
Max request concurrency:                 64
Successful requests:                     50
Benchmark duration (s):                  128.43
Total input tokens:                      26955
Total generated tokens:                  23606
Request throughput (req/s):              0.39
Input token throughput (tok/s):          209.88
Output token throughput (tok/s):         183.80
Peak output token throughput (tok/s):    299.00
Total token throughput (tok/s):          393.68
Concurrency:                             7.01
Accept length:                           2.14
"""
PR17098_SERVER = ("python -m sglang.launch_server --model-path /home/Qwen3-8B --speculative-algorithm EAGLE3 "
                  "--speculative-draft-model-path /home/Qwen3-8B-eagle3 --speculative-num-steps 4 "
                  "--speculative-eagle-topk 1 --speculative-num-draft-tokens 5")


def test_a_capped_speculative_sglang_server_at_high_concurrency_says_why_it_queues():
    launch = launch_step.parse({"source": "var", "cmdline": PR17098_SERVER, "models": {}})
    facts = throughput_step.parse({"found": True, "path": "bench.log", "lines": BENCH_AT_64.splitlines(),
                                   "args": {"baseline_tok_s": "250"}})
    [sd501] = [f for f in throughput_step.check(context(facts, launch)) if f.code == "SD501"]
    assert any("48 running requests" in line and "64 requests at once" in line for line in sd501.evidence)
    # given explicitly, the cap is the user's choice: no such line
    launch = launch_step.parse({"source": "var", "cmdline": PR17098_SERVER + " --max-running-requests 128",
                                "models": {}})
    [sd501] = [f for f in throughput_step.check(context(facts, launch)) if f.code == "SD501"]
    assert not any("48 running requests" in line for line in sd501.evidence)


@pytest.mark.skipif(not Path("/proc/self/cmdline").exists(), reason="needs /proc")
def test_forward_source_reads_the_engine_source_of_the_servers_venv(server_venv):
    from spec_debug.probes import forward_source

    # the probe's Python has no sglang; before: "sglang is not installed in this Python"
    assert forward_source.package_dir("sglang") == (None, None)
    with server_process(sglang_server(str(server_venv / "bin" / "python"), *EAGLE3_FLAGS)) as process:
        server = engine_info.server_packages(process)
    served = forward_source.describe("sglang", server=lambda: server)
    assert served["found"] and served["version"] == "0.5.4"
    assert served["read_from"] == f"the server's interpreter {server_venv / 'bin' / 'python'}"
    assert served["cat_orders"] == [["self.input_layernorm(embeds)", "self.hidden_norm(hidden_states)"]]
    assert served["flags"] == dict.fromkeys(forward_source.NORM_FLAGS, False)
    # and when the server's interpreter has none either, the reason says both
    missing = forward_source.describe("vllm", server=lambda: server)
    assert missing["reason"] == f"vllm is not installed in this Python nor in the server's interpreter " \
                                f"{server_venv / 'bin' / 'python'}"


# ---------------------------------------------------------------------------------------------
# vLLM V0 speculative metrics
# ---------------------------------------------------------------------------------------------
# vllm-project/vllm issue #9539 (vLLM 0.6.3, "how to understand logs"), verbatim
VLLM_V0_LOG = """\
INFO 10-16 19:05:47 metrics.py:367] Speculative metrics: Draft acceptance rate: 0.642, System efficiency: 0.598, Number of speculative tokens: 3, Number of accepted tokens: 8547, Number of draft tokens: 13311, Number of emitted tokens: 10616.
INFO 10-16 19:06:01 metrics.py:361] Prefix cache hit rate: GPU: 94.35%, CPU: 0.00%
"""
# vllm-project/vllm issue #8620 (Medusa on vLLM 0.6.1): nothing accepted, one token per round
VLLM_V0_NOTHING_ACCEPTED = ("Speculative metrics: Draft acceptance rate: 0.000, System efficiency: 0.250, "
                            "Number of speculative tokens: 3, Number of accepted tokens: 0, "
                            "Number of draft tokens: 483, Number of emitted tokens: 161.")


def test_vllm_v0_speculative_metrics_give_the_accept_length(tmp_path):
    from spec_debug.probes import server_log

    log = tmp_path / "vllm.log"
    log.write_text(VLLM_V0_LOG)
    shipped = server_log.run({"server_log": str(log)})["lines"]  # before: the line was not even shipped
    stats = parse_server_log("\n".join(shipped))
    # 13311 drafts / K=3 = 4437 rounds emitting 10616 tokens; = system efficiency 0.598 x (K+1)
    assert stats.engine == "vllm" and stats.accept_length == pytest.approx(10616 / (13311 / 3), abs=1e-4)
    assert (stats.accepted_tokens, stats.drafted_tokens) == (8547, 13311)
    assert parse_server_log(VLLM_V0_NOTHING_ACCEPTED).accept_length == 1.0


# ---------------------------------------------------------------------------------------------
# Relative model paths are the server's, not the probe's
# ---------------------------------------------------------------------------------------------
@pytest.mark.skipif(not Path("/proc/self/cwd").exists(), reason="needs /proc")
def test_relative_model_paths_are_read_from_the_servers_working_directory(tmp_path, monkeypatch):
    from spec_debug.probes import launch_flags

    # `cd /data/models && python -m sglang.launch_server --model-path Llama-3.1-8B-Instruct
    #  --speculative-draft-model-path ./llama3-eagle3 ...` (SpecForge's output directory
    # layout); the probe itself runs from elsewhere
    demo = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
    models = tmp_path / "models"
    (models / "Llama-3.1-8B-Instruct").mkdir(parents=True)
    (models / "llama3-eagle3").mkdir()
    (models / "Llama-3.1-8B-Instruct" / "config.json").write_text((demo / "target" / "config.json").read_text())
    (models / "llama3-eagle3" / "config.json").write_text((demo / "draft" / "config.json").read_text())
    argv = sglang_server(sys.executable, "--model-path", "Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3",
                         "--speculative-draft-model-path", "./llama3-eagle3", "--speculative-num-steps", "1",
                         "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "2")
    elsewhere = tmp_path / "probe-cwd"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    with server_process(argv, cwd=models) as process:
        monkeypatch.setattr(launch_flags, "server_processes", lambda: [process])
        host = launch_flags.run({"server_cmdline": ""})
    assert set(host["models"]) == {"Llama-3.1-8B-Instruct", "./llama3-eagle3"}
    assert host["models"]["./llama3-eagle3"]["path"] == str(models / "llama3-eagle3")
    facts = launch_step.parse(json.loads(json.dumps(host)))
    # the draft's trained steps are known, so one served step is an error, not a guess
    assert facts["launch"]["trained_steps"] == 3
    assert codes(launch_step.check(context(facts))) == [("SD101", "error")]


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_hub_ids_are_found_in_the_servers_own_hf_cache(tmp_path, monkeypatch):
    from spec_debug.probes import launch_flags

    # the server runs with HF_HOME=/data/hf (a unit file, a tmux session); the probe's ssh
    # session has no HF_HOME and its ~/.cache/huggingface holds neither model
    demo = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
    hf_home = tmp_path / "hf"
    for repo, source in (("meta-llama/Llama-3.1-8B-Instruct", "target"),
                         ("yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "draft")):
        snap = hf_home / "hub" / ("models--" + repo.replace("/", "--")) / "snapshots" / "0e9e39f"
        snap.mkdir(parents=True)
        (snap / "config.json").write_text((demo / source / "config.json").read_text())
    env = {k: v for k, v in os.environ.items() if k not in ("HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE")}
    for key in ("HF_HOME", "HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "probe-home"))
    argv = sglang_server(sys.executable, "--model", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm",
                         "EAGLE3", "--speculative-draft-model-path", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                         "--speculative-num-steps", "1", "--speculative-eagle-topk", "1",
                         "--speculative-num-draft-tokens", "2")
    with server_process(argv, env={**env, "HF_HOME": str(hf_home)}) as process:
        monkeypatch.setattr(launch_flags, "server_processes", lambda: [process])
        host = launch_flags.run({"server_cmdline": ""})
    assert set(host["models"]) == {"meta-llama/Llama-3.1-8B-Instruct", "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"}
    facts = launch_step.parse(json.loads(json.dumps(host)))
    assert facts["resolved_draft_model"].startswith(str(hf_home))
    assert codes(launch_step.check(context(facts))) == [("SD101", "error")]


def test_an_accept_length_below_one_is_not_taken_for_a_measurement():
    # SGLang's decode line format (issue #11948) with accept len 0.00: no round can emit fewer
    # than the target's own token, so it is no evidence of lost acceptance (before: SD502 error
    # "server log accept length 0.00" and a "measurement not comparable" note)
    lines = [f"[2025-10-22 10:27:5{i} TP0] Decode batch. #running-req: 1, #token: {108 + 70 * i}, token usage: 0.00, "
             f"accept len: 0.00, accept rate: 0.00, cuda graph: True, gen throughput (token/s): {v}, #queue-req: 0, "
             for i, v in enumerate((61.0, 62.0, 60.5))]
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {"launch": {"effective": {"num_steps": 3}},
            "eval": {"reference": {"steps": 3, "reference": "target_argmax",
                                   "target_conditional_acceptance": [0.75, 0.7, 0.6]}}}
    found = throughput_step.check(context(facts, host))
    assert [f.code for f in found] == ["SD004", "SD501"]
    assert "below 1" in found[0].evidence[0]
    assert not any("accept length in the server log" in line for line in found[1].evidence)


def test_a_vllm_source_build_is_judged_as_the_newest_not_the_oldest_release():
    # vllm-project/vllm issue reports: "vLLM: 0.1.dev19253+g5f76ae224.d20260727" in the
    # vllm/vllm-openai-rocm:kimi-k3 image; as a version, 0.1 is older than every rule (vLLM
    # honoured norm_before_fc only from PR #38111), so the audit judged a new build as ancient
    host = {"python_executable": "/usr/bin/python3", "args": {"launch_engine": "vllm"},
            "packages": {"vllm": {"version": "0.1.dev19253+g5f76ae224.d20260727",
                                  "path": "/usr/local/lib/python3.12/dist-packages/vllm"}}}
    facts = engine_step.parse(host)
    assert facts["engine"]["version"] is None and facts["resolved_engine_version"] == ""
    [line] = engine_step.check(context(facts))
    assert line.code == "SD004" and "0.1.dev19253" in line.evidence[0] and "newest" in line.evidence[0]
    released = engine_step.parse({**host, "packages": {"vllm": {"version": "0.11.0", "path": "/x"}}})
    assert released["engine"]["version"] == "0.11.0" and engine_step.check(context(released)) == []


def test_a_containerised_servers_models_are_read_through_its_root(tmp_path):
    from spec_debug.probes import launch_flags

    # The SGLang docs' docker command (docs/get_started/install.md) with the EAGLE-3 flags: the
    # server names /root/.cache/huggingface and /models inside its container; from the host
    # they are under /proc/PID/root (here a fake /proc: a real container needs root and docker)
    demo = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"
    proc_dir, container = tmp_path / "proc", tmp_path / "proc" / "4242" / "root"
    (proc_dir / "4242" / "ns").mkdir(parents=True)
    (proc_dir / "self" / "ns").mkdir(parents=True)
    os.symlink("mnt:[4026532511]", proc_dir / "4242" / "ns" / "mnt")
    os.symlink("mnt:[4026531840]", proc_dir / "self" / "ns" / "mnt")
    os.symlink("/sgl-workspace", proc_dir / "4242" / "cwd")
    (proc_dir / "4242" / "environ").write_bytes(b"HOME=/root\0PATH=/usr/local/bin:/usr/bin\0")
    snap = container / "root/.cache/huggingface/hub/models--meta-llama--Llama-3.1-8B-Instruct/snapshots/0e9e39f"
    snap.mkdir(parents=True)
    (snap / "config.json").write_text((demo / "target" / "config.json").read_text())
    (container / "models" / "llama3-eagle3").mkdir(parents=True)
    (container / "models" / "llama3-eagle3" / "config.json").write_text((demo / "draft" / "config.json").read_text())
    argv = ["python3", "-m", "sglang.launch_server", "--model-path", "meta-llama/Llama-3.1-8B-Instruct",
            "--speculative-algorithm", "EAGLE3", "--speculative-draft-model-path", "/models/llama3-eagle3",
            "--speculative-num-steps", "1", "--speculative-eagle-topk", "1", "--speculative-num-draft-tokens", "2",
            "--host", "0.0.0.0", "--port", "30000"]
    view = launch_flags.server_view(4242, proc=proc_dir)
    models = launch_flags.find_models(launch_flags.model_refs(argv), argv, view)
    assert models["/models/llama3-eagle3"]["path"] == str(container / "models" / "llama3-eagle3")
    assert models["meta-llama/Llama-3.1-8B-Instruct"]["path"] == str(snap)
    facts = launch_step.parse({"source": "/proc/4242/cmdline", "argv": argv, "models": models})
    assert codes(launch_step.check(context(facts))) == [("SD101", "error")]


def test_a_containerised_servers_engine_version_is_read_from_its_site_packages(tmp_path):
    # `docker run ... lmsysorg/sglang:v0.5.4.post1 python3 -m sglang.launch_server ...` seen from
    # the host (a fake /proc): its torch libraries are mapped from the container's dist-packages,
    # where sglang's dist-info says the version; the host's /usr/bin/python3 is not asked
    proc_dir = tmp_path / "proc"
    (proc_dir / "4242" / "ns").mkdir(parents=True)
    (proc_dir / "self" / "ns").mkdir(parents=True)
    os.symlink("mnt:[4026532511]", proc_dir / "4242" / "ns" / "mnt")
    os.symlink("mnt:[4026531840]", proc_dir / "self" / "ns" / "mnt")
    site = "/usr/local/lib/python3.12/dist-packages"
    (proc_dir / "4242" / "maps").write_text(
        f"7f2c1a000000-7f2c1c000000 r-xp 00000000 00:3a 1234567 {site}/torch/lib/libtorch_cuda.so\n"
        "7f2c1e000000-7f2c1e021000 r-xp 00000000 00:3a 7654321 /usr/lib/x86_64-linux-gnu/libc.so.6\n")
    dist = proc_dir / "4242" / "root" / site.lstrip("/")
    for name, version in (("sglang", "0.5.4.post1"), ("torch", "2.8.0+cu128")):
        (dist / f"{name}-{version}.dist-info").mkdir(parents=True)
        (dist / f"{name}-{version}.dist-info" / "METADATA").write_text(
            f"Metadata-Version: 2.4\nName: {name}\nVersion: {version}\n")
    server = engine_info.server_packages({"pid": 4242, "argv": ["python3", "-m", "sglang.launch_server"]},
                                         proc=proc_dir)
    assert server["packages"]["sglang"]["version"] == "0.5.4.post1" and server["packages"]["vllm"] is None
    assert server["packages"]["sglang"]["path"] == str(dist / "sglang")
    facts = engine_step.parse({"python_executable": "/usr/bin/python3", "packages": {}, "server": server,
                               "args": {"launch_engine": "sglang"}})
    assert facts["engine"]["version"] == "0.5.4.post1" and engine_step.check(context(facts)) == []
