"""Hardening 8: launch commands as they run on real hosts (abbreviations older SGLang releases
accepted, the engines' CLI modules started with a venv's interpreter).

Each test is a user story spec-debug got wrong before; the source of every input is cited.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from spec_debug.diagnose.launch import (
    LaunchParseError,
    effective_spec,
    parse_launch_command,
)
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.fake_servers import server_process

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"


def context(facts: dict, host_facts: dict | None = None) -> ProbeContext:
    return ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                        host_facts={**(host_facts or {}), **facts})


def codes(findings) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in findings]


# ---------------------------------------------------------------------------------------------
# `--speculative-draft X`: SGLang's own EAGLE commands abbreviate the draft flag. Releases up to
# 0.5.2rc2 had one `--speculative-draft*` option and read it; 0.5.2 added --speculative-draft-model
# and --speculative-draft-model-revision, and argparse refuses it as ambiguous from then on
# (sgl-project/sglang PR #10161). A server running with it is older, and must be audited.
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang PR #4716 ("Fix EAGLE3 for llama3.3 70b"), the command tested on H100 TP8
SGLANG_PR4716 = """python3 -m sglang.launch_server --model meta-llama/Llama-3.3-70B-Instruct --speculative-algo EAGLE3 \\
    --speculative-draft /sgl-workspace/EAGLE3-LLaMA3.3-Instruct-70B --speculative-num-steps 8 \\
    --speculative-eagle-topk 8 --speculative-num-draft-tokens 64 \\
    --cuda-graph-max-bs 1 --dtype float16 --port 30000 --tp 8"""
# SafeAILab/EAGLE PR #173 (SGLang's EAGLE numbers in the EAGLE README)
SGLANG_EAGLE_PR173 = ("python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf  --speculative-algo EAGLE "
                      "--speculative-draft lmzheng/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 5 "
                      "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64 --mem-fraction 0.7")


def test_an_abbreviation_older_sglang_accepted_is_read_as_it_read_it():
    cfg = parse_launch_command(SGLANG_PR4716)
    assert (cfg.draft_model, cfg.algorithm, cfg.tp) == ("/sgl-workspace/EAGLE3-LLaMA3.3-Instruct-70B", "EAGLE3", 8)
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (8, 8, 64)
    assert parse_launch_command(SGLANG_EAGLE_PR173).draft_model == "lmzheng/sglang-EAGLE-llama2-chat-7B"
    # the releases that had one --speculative-draft* option start with it, rc's of 0.5.2 included
    # (0.4.4.post2: the first release with EAGLE3, which the command serves)
    for version in ("0.4.4.post2", "0.5.1.post3", "0.5.2rc2"):
        assert effective_spec(cfg, engine_version=version).problems == [], version
    # 0.5.2 and later (and an unknown version, judged as the newest) refuse it
    for version in ("0.5.2", "0.5.3", None):
        [problem] = effective_spec(cfg, engine_version=version).problems
        assert "--speculative-draft is ambiguous from SGLang 0.5.2 on" in problem
        assert "--speculative-draft-model-revision" in problem and "read it as --speculative-draft-model-path" in problem


def test_a_running_old_server_with_the_abbreviation_gets_its_launch_audit():
    draft = {"architectures": ["LlamaForCausalLMEagle"], "torch_dtype": "float16"}  # an EAGLE-1 draft
    facts = launch_step.parse({"source": "/proc/4242/cmdline", "cmdline": SGLANG_PR4716, "models": {
        "/sgl-workspace/EAGLE3-LLaMA3.3-Instruct-70B": {"found": True, "path": "/sgl-workspace/EAGLE3-LLaMA3.3-Instruct-70B",
                                                        "config": draft}}})
    assert facts["launch"]["found"] and facts["resolved_draft_model"] == "/sgl-workspace/EAGLE3-LLaMA3.3-Instruct-70B"
    old = launch_step.check(context(facts, {"engine": {"name": "sglang", "version": "0.4.4.post2"}}))
    # the audit runs: EAGLE3 served with an EAGLE checkpoint (before: SD004 "could not be read")
    assert codes(old) == [("SD103", "error")]
    new = launch_step.check(context(facts, {"engine": {"name": "sglang", "version": "0.5.4"}}))
    # SGLang 0.5.4 stops at argparse on it: a refusal at startup is an error (hardening67), and no
    # draft is loaded, so the draft named there is not judged (hardening72: was SD103 beside it)
    assert codes(new) == [("SD102", "error")]
    assert "ambiguous from SGLang 0.5.2" in new[0].evidence[0]


def test_a_prefix_that_every_release_refuses_is_still_refused():
    ambiguous = SGLANG_PR4716.replace("--speculative-num-steps 8", "--speculative-num 8").replace(
        " --speculative-num-draft-tokens 64", "")
    facts = launch_step.parse({"source": "var", "cmdline": ambiguous, "models": {}})
    [line] = launch_step.check(context(facts))
    # every release refuses it at startup: an error (hardening69), no longer SD004 info
    assert (line.code, line.severity) == ("SD102", "error")
    assert "--speculative-num-draft-tokens, --speculative-num-steps" in line.evidence[0]


# ---------------------------------------------------------------------------------------------
# `"$PYTHON_BIN" -m vllm.entrypoints.cli.main serve MODEL ...`: the module behind the `vllm`
# console script (vllm-project/vllm pyproject.toml `vllm = "vllm.entrypoints.cli.main:main"`),
# how launch scripts that pin a venv's interpreter start the server.
# ---------------------------------------------------------------------------------------------
EAGLE3_SPEC = {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 1}


def test_the_vllm_cli_module_is_a_vllm_serve_command():
    cfg = parse_launch_command("/opt/venv/bin/python -m vllm.entrypoints.cli.main serve meta-llama/Llama-3.1-8B-Instruct "
                               f"--host 127.0.0.1 --port 8000 --speculative-config '{json.dumps(EAGLE3_SPEC)}'")
    assert (cfg.engine, cfg.target_model, cfg.algorithm, cfg.num_steps) == (
        "vllm", "meta-llama/Llama-3.1-8B-Instruct", "EAGLE3", 1)
    # sgl-project/sglang python/pyproject.toml `sglang = "sglang.cli.main:main"`: `sglang serve`
    sg = parse_launch_command("python -m sglang.cli.main serve --model-path Qwen/Qwen3-8B --speculative-algorithm EAGLE3 "
                              "--speculative-draft-model-path Tengyunw/qwen3_8b_eagle3 --speculative-num-steps 3 "
                              "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert (sg.engine, sg.target_model, sg.num_steps) == ("sglang", "Qwen/Qwen3-8B", 3)


def test_the_probe_finds_a_server_started_as_the_vllm_cli_module():
    argv = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "vllm.entrypoints.cli.main", "serve",
            "meta-llama/Llama-3.1-8B-Instruct", "--speculative-config", json.dumps(EAGLE3_SPEC)]
    with server_process(argv) as process:
        found = launch_flags.server_processes()
        assert process["pid"] in [p["pid"] for p in found]
        chosen = launch_flags.choose_server([p for p in found if p["pid"] == process["pid"]])
    facts = launch_step.parse({"source": f"/proc/{chosen['pid']}/cmdline", "argv": chosen["argv"], "models": {}})
    assert facts["launch"]["engine"] == "vllm" and facts["launch"]["num_steps"] == 1
    assert codes(launch_step.check(context(facts))) == [("SD101", "warning")]


# ---------------------------------------------------------------------------------------------
# Line continuations padded with spaces (`\` then spaces then a newline), as a command copied
# from a web page or an editor that pads lines arrives: the continued command is the one meant.
# ---------------------------------------------------------------------------------------------
# docs.vllm.ai/projects/speculators, user_guide/tutorials/serve_vllm ("Long form command")
SPECULATORS_LONG_FORM = """vllm serve Qwen/Qwen3-8B \\
  -tp 1 \\
  --speculative-config '{
    "model": "RedHatAI/Qwen3-8B-speculator.eagle3",
    "num_speculative_tokens": 3,
    "method": "eagle3"
  }'"""


def test_a_continuation_padded_with_spaces_keeps_the_model_positional():
    padded = SPECULATORS_LONG_FORM.replace("\\\n", "\\  \n").replace("serve ", "serve \\ \n  ")
    cfg = parse_launch_command(padded)
    # before: the escaped space was an argument of its own, and vLLM's positional model was " "
    assert (cfg.target_model, cfg.draft_model, cfg.num_steps, cfg.tp) == (
        "Qwen/Qwen3-8B", "RedHatAI/Qwen3-8B-speculator.eagle3", 3, 1)
    facts = launch_step.parse({"source": "var", "cmdline": padded, "models": {}})
    assert facts["resolved_target_model"] == "Qwen/Qwen3-8B"
    assert parse_launch_command(padded.replace("\n", "\r\n")).target_model == "Qwen/Qwen3-8B"


# ---------------------------------------------------------------------------------------------
# vLLM <= 0.7 (V0) flags: `--speculative_model` and `--num_speculative_tokens`, no JSON config.
# ---------------------------------------------------------------------------------------------
# docs.vllm.ai/en/v0.6.3.post1/models/spec_decode.html: the server command of the draft-model
# example (its n-gram example sets speculative_model="[ngram]", ngram_prompt_lookup_max=4)
VLLM_V0_SERVER = """python -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8000 --model facebook/opt-6.7b \\
    --seed 42 -tp 1 --speculative_model {draft} --use-v2-block-manager \\
    --num_speculative_tokens {k} --gpu_memory_utilization 0.8"""


def test_v0_ngram_is_an_ngram_draft_and_the_fix_names_the_v0_flag():
    command = VLLM_V0_SERVER.format(draft='"[ngram]"', k=1) + " --ngram_prompt_lookup_max 4"
    cfg = parse_launch_command(command)
    assert (cfg.algorithm, cfg.num_steps) == ("NGRAM", 1)
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    [sd101] = launch_step.check(context(facts))
    # before: "the draft config does not say how many steps it was trained for" about "[ngram]",
    # and a `"num_speculative_tokens": 1 in --speculative-config` the command does not have
    assert (sd101.code, sd101.severity) == ("SD101", "warning")
    assert sd101.evidence[0] == "launch command: --num-speculative-tokens 1"
    assert "n-gram lookup draft (no weights)" in sd101.evidence[2]
    assert "--num-speculative-tokens 3" in sd101.remediation


def test_v0_draft_served_at_one_token_names_the_v0_flag_in_the_fix():
    # the demo's speculators EAGLE-3 draft, trained for 3 speculative tokens
    draft = json.loads((DEMO / "draft" / "config.json").read_text())
    command = VLLM_V0_SERVER.format(draft="/models/draft", k=1)
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {
        "/models/draft": {"found": True, "path": "/models/draft", "config": draft}}})
    [sd101] = [f for f in launch_step.check(context(facts)) if f.code == "SD101"]
    assert sd101.severity == "error" and sd101.evidence[0] == "launch command: --num-speculative-tokens 1"
    assert sd101.remediation == "Serve with 3 speculative tokens: --num-speculative-tokens 3."


# ---------------------------------------------------------------------------------------------
# SGLANG_ENABLE_SPEC_V2 given to the container (`docker run -e`, compose `environment:`, k8s
# `env:`) or before a `bash -c`: the server inherits it, as from `VAR=1 python -m ...`.
# sgl-project/sgl-cookbook PR #240 turns spec v2 on by prepending SGLANG_ENABLE_SPEC_V2=1.
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang docs (install: "Method 3: Using docker") with the EAGLE-3 flags of
# docs/advanced_features/speculative_decoding (steps 5, topk 8, 32 draft tokens)
SGLANG_EAGLE3_FLAGS = ("--model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
                       "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
                       "--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32")
SGLANG_DOCKER = ("docker run --gpus all --shm-size 32g -p 30000:30000 -v ~/.cache/huggingface:/root/.cache/huggingface "
                 '--env "HF_TOKEN=<secret>" {env}--ipc=host lmsysorg/sglang:latest {cmd}')
# sgl-project/sglang docker/compose.yaml with the speculative flags and the variable added
SGLANG_COMPOSE = """services:
  sglang:
    image: lmsysorg/sglang:latest
    container_name: sglang
    volumes:
      - ${HOME}/.cache/huggingface:/root/.cache/huggingface
    restart: always
    network_mode: host
    environment:
      HF_TOKEN: <secret>
      SGLANG_ENABLE_SPEC_V2: "1"
    entrypoint: python3 -m sglang.launch_server
    command:
      FLAGS
    ipc: host
    healthcheck:
      test: ["CMD-SHELL", "curl -f http://localhost:30000/health || exit 1"]
""".replace("FLAGS", SGLANG_EAGLE3_FLAGS)


def spec_v2_note(command: str) -> tuple[dict, list[str]]:
    cfg = parse_launch_command(command)
    return cfg.env, [line for line in effective_spec(cfg).overrides if "SGLANG_ENABLE_SPEC_V2" in line]


def test_spec_v2_given_to_the_container_is_the_servers_environment():
    server = "python3 -m sglang.launch_server " + SGLANG_EAGLE3_FLAGS
    for command in (SGLANG_DOCKER.format(env="-e SGLANG_ENABLE_SPEC_V2=1 ", cmd=server),
                    SGLANG_DOCKER.format(env="--env=SGLANG_ENABLE_SPEC_V2=1 ", cmd=f"bash -c '{server}'"),
                    f"SGLANG_ENABLE_SPEC_V2=1 bash -c '{server}'",
                    SGLANG_COMPOSE):
        env, [note] = spec_v2_note(command)
        # the engine's variable only: a token given to the container stays out of the facts
        assert env == {"SGLANG_ENABLE_SPEC_V2": "1"}, command
        assert "with topk 8: SGLang 0.5.11-0.5.12 runs spec v1" in note
    assert spec_v2_note(SGLANG_DOCKER.format(env="", cmd=server)) == ({}, [])


def test_spec_v2_in_a_kubernetes_env_list():
    manifest = f"""apiVersion: apps/v1
kind: Deployment
spec:
  template:
    spec:
      containers:
      - name: sglang
        image: lmsysorg/sglang:latest
        env:
        - name: HF_TOKEN
          valueFrom: {{secretKeyRef: {{name: hf, key: token}}}}
        - name: SGLANG_ENABLE_SPEC_V2
          value: "true"
        command: ["/bin/sh", "-c"]
        args: ["python3 -m sglang.launch_server {SGLANG_EAGLE3_FLAGS} --port 30000"]
"""
    env, [note] = spec_v2_note(manifest)
    assert env == {"SGLANG_ENABLE_SPEC_V2": "true"} and "spec v1" in note
    assert parse_launch_command(manifest).num_draft_tokens == 32


# ---------------------------------------------------------------------------------------------
# A launch script pasted as server_cmdline: its values are shell expressions. The message says
# so (and how to get the values that run), not "expects an integer".
# ---------------------------------------------------------------------------------------------
# an SGLang benchmark README's timing server (radix KV sharing, one launch per K)
SCRIPTED = """SGLANG_RADIX_KV_M0_RECORD=target_verify_gpu_time \\
python -m sglang.launch_server \\
  --model-path meta-llama/Llama-3.1-8B-Instruct \\
  --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B \\
  --speculative-num-steps ${K} \\
  --speculative-eagle-topk 1 \\
  --speculative-num-draft-tokens $((K + 1)) \\
  --context-length 20000 \\
  --dtype bfloat16"""


def test_a_shell_expression_for_a_count_says_the_text_does_not_hold_the_value():
    facts = launch_step.parse({"source": "server_cmdline var", "cmdline": SCRIPTED, "models": {}})
    [line] = launch_step.check(context(facts))
    assert line.code == "SD004"
    assert "--speculative-num-steps holds the shell expression '${K}'" in line.evidence[0]
    assert "/proc/PID/cmdline" in line.evidence[0]
    # vLLM: the same in the JSON, and in a dotted key with a default
    for command in (('vllm serve m --speculative-config "{\\"method\\": \\"eagle3\\", \\"model\\": \\"d\\", '
                     '\\"num_speculative_tokens\\": $K}"'),
                    "vllm serve m --speculative-config.model d --speculative-config.num_speculative_tokens ${K:-3}"):
        with pytest.raises(LaunchParseError, match="shell expression"):
            parse_launch_command(command)


# ---------------------------------------------------------------------------------------------
# vLLM: dotted `--speculative-config.KEY` flags do not merge into a JSON --speculative-config;
# FlexibleArgumentParser adds them as one last --speculative-config, which replaces the JSON
# (vllm/utils/argparse_utils.py `parse_args`; the option is json.loads, last one wins). The
# natural override of a --config YAML's `speculative-config:` mapping loses the draft model.
# ---------------------------------------------------------------------------------------------
# vllm-project/vllm vllm/utils/argparse_utils.py, `load_config_file` docstring (nested form)
VLLM_SERVE_YAML = """\
compilation-config:
  pass_config:
    fuse_allreduce_rms: true
speculative-config:
  model: "nvidia/gpt-oss-120b-Eagle3-v2"
  num_speculative_tokens: 3
  method: eagle3
"""


def test_dotted_keys_after_a_yaml_speculative_config_replace_it():
    command = "vllm serve openai/gpt-oss-120b --config serve.yaml --speculative-config.num_speculative_tokens 5"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {},
                               "config_file": {"path": "serve.yaml", "text": VLLM_SERVE_YAML}})
    launch = facts["launch"]
    assert (launch["draft_model"], launch["speculative_config"]) == (None, {"num_speculative_tokens": 5})
    [sd102] = [f for f in launch_step.check(context(facts)) if f.code == "SD102"]
    assert "replaced by the dotted keys --speculative-config.num_speculative_tokens" in sd102.evidence[0]
    assert "vLLM refuses to start" in sd102.evidence[0]
    # the same YAML without the override serves its draft, with no such problem
    plain = launch_step.parse({"source": "var", "cmdline": "vllm serve openai/gpt-oss-120b --config serve.yaml",
                               "models": {}, "config_file": {"path": "serve.yaml", "text": VLLM_SERVE_YAML}})
    assert plain["launch"]["draft_model"] == "nvidia/gpt-oss-120b-Eagle3-v2"
    assert not [f for f in launch_step.check(context(plain)) if f.code == "SD102"]


def test_an_eagle3_method_without_a_draft_model_is_refused_by_vllm():
    cfg = parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
                               "'{\"method\": \"eagle3\", \"num_speculative_tokens\": 3}'")
    [problem] = effective_spec(cfg).problems
    assert "no draft model for method eagle3: vLLM refuses to start" in problem
    # methods that need no draft model, and a speculators checkpoint served as the model
    for spec in ('{"method": "mtp", "num_speculative_tokens": 1}',
                 '{"method": "ngram", "num_speculative_tokens": 3, "prompt_lookup_max": 4}',
                 '{"num_speculative_tokens": 3}'):
        assert effective_spec(parse_launch_command(f"vllm serve m --speculative-config '{spec}'")).problems == []


# ---------------------------------------------------------------------------------------------
# SGLang DFLASH drafts its whole block in one pass: --speculative-num-steps 1 is what SGLang
# sets for it anyway (speculative_hook.py `_handle_dflash`), not a one-token cap. A DFLASH
# server logs accept len 4.50 (modal-labs/modal-examples PR #1586).
# ---------------------------------------------------------------------------------------------
def test_a_dflash_block_drafter_at_one_step_is_not_capped():
    command = ("python -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm DFLASH "
               "--speculative-draft-model-path z-lab/Qwen3-8B-DFlash-b16 --speculative-num-steps 1 "
               "--speculative-num-draft-tokens 16 --tp-size 1")
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    assert [f for f in launch_step.check(context(facts)) if f.code == "SD101"] == []
    # an EAGLE-3 draft at one step still is (SD101)
    eagle = command.replace("DFLASH", "EAGLE3").replace("--speculative-num-draft-tokens 16",
                                                        "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2")
    facts = launch_step.parse({"source": "var", "cmdline": eagle, "models": {}})
    assert [f.code for f in launch_step.check(context(facts))] == ["SD101"]


def test_spec_v2_with_a_tree_is_judged_by_the_running_release():
    # the lm-sys blog's Ling-3.0 commands still export SGLANG_ENABLE_SPEC_V2 (lm-sys/lm-sys.github.io
    # PR #413), which 0.5.14 removed; the PyPI wheels: 0.5.7-0.5.10 refuse a tree with it, 0.5.11-
    # 0.5.12 fall back to spec v1, 0.5.13 runs the V2 worker for trees
    command = "SGLANG_ENABLE_SPEC_V2=1 python3 -m sglang.launch_server " + SGLANG_EAGLE3_FLAGS
    facts = launch_step.parse({"source": "/proc/77/cmdline", "cmdline": command, "models": {}})

    def sd102(version: str) -> list[str]:
        found = launch_step.check(context(facts, {"engine": {"name": "sglang", "version": version}}))
        return [line for f in found if f.code == "SD102" for line in f.evidence]

    # before: "runs spec v1 with the overlap scheduler off" on every release
    assert sd102("0.5.14") == [] and sd102("0.5.13") == []
    [fallback] = sd102("0.5.12.post1")
    assert "SGLang 0.5.12.post1 runs spec v1 with the overlap scheduler off" in fallback
    [refused] = sd102("0.5.8")
    assert "SGLang 0.5.8 refuses to start" in refused


# ---------------------------------------------------------------------------------------------
# A command pasted from chat or a wiki: `--` became an em/en dash, quotes curly, spaces no-break.
# ---------------------------------------------------------------------------------------------
def test_a_command_pasted_from_chat_is_read_as_typed():
    # the SD101 story's command (one step for a 3-step draft) as Slack renders it
    slack = ("python3 -m sglang.launch_server \u2014model-path {target} \u2014speculative-algorithm EAGLE3 "
             "\u2014speculative-draft-model-path {draft} \u2014speculative-num-steps 1 "
             "\u2013speculative-eagle-topk\u00a01 \u2014speculative-num-draft-tokens 2").format(
                 target=DEMO / "target", draft=DEMO / "draft")
    host = launch_flags.run({"server_cmdline": slack})
    facts = launch_step.parse(json.loads(json.dumps(host)))
    # before: no flag was read, the command looked like a server without speculation
    assert (facts["launch"]["num_steps"], facts["launch"]["trained_steps"]) == (1, 3)
    assert codes(launch_step.check(context(facts))) == [("SD101", "error")]
    # the speculators docs' long form with a word processor's quotes
    curly = SPECULATORS_LONG_FORM.replace("'", "\u2019").replace('"', "\u201d")
    cfg = parse_launch_command(curly.replace("\u2019{", "\u2018{", 1))
    assert (cfg.draft_model, cfg.num_steps) == ("RedHatAI/Qwen3-8B-speculator.eagle3", 3)


# ---------------------------------------------------------------------------------------------
# One script, two servers: a prefill/decode pair (the speculative flags on the decode server,
# as DeepSeek MTP deployments run it) or a baseline and a speculative server, one per line.
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang docs/advanced_features/pd_disaggregation.md's pair on one node, with the
# DeepSeek docs' MTP flags on the decode leg
PD_PAIR = """python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3-0324 --disaggregation-mode prefill \\
  --tp-size 8 --port 30000 --trust-remote-code > prefill.log 2>&1 &
python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3-0324 --disaggregation-mode decode \\
  --tp-size 8 --port 30001 --base-gpu-id 8 --trust-remote-code \\
  --speculative-algorithm EAGLE --speculative-num-steps 1 --speculative-eagle-topk 1 \\
  --speculative-num-draft-tokens 2 > decode.log 2>&1 &
"""


def test_the_speculating_server_of_a_prefill_decode_pair_is_audited():
    cfg = parse_launch_command(PD_PAIR)
    # before: the prefill server, first in the script, read as a server without speculation
    assert (cfg.flags["disaggregation-mode"], cfg.algorithm, cfg.num_steps) == ("decode", "EAGLE", 1)


def test_servers_on_separate_lines_are_separate_commands():
    # SafeAILab/EAGLE PR #173: the baseline and the EAGLE server, one line each, as a README
    # block is copied; the baseline's --mem-fraction 0.9 must not leak into the EAGLE server
    block = ("python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf --mem-fraction 0.9\n"
             + SGLANG_EAGLE_PR173.replace("--mem-fraction 0.7", "--tp 2") + "\n")
    cfg = parse_launch_command(block)
    assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE", 5, 2)
    assert "mem-fraction" not in cfg.flags
    # a line that starts with a flag, or follows a flag waiting for its value, still continues
    # the command (its `\` lost in the copy)
    lost = SGLANG_PR4716.replace(" \\\n", "\n")
    assert parse_launch_command(lost).num_draft_tokens == 64
    wrapped = SGLANG_PR4716.replace(" \\\n    --speculative-draft ", " --speculative-draft\n")
    assert parse_launch_command(wrapped).draft_model == "/sgl-workspace/EAGLE3-LLaMA3.3-Instruct-70B"
    # an engine variable on its own line above the server is meant for it (as the previous
    # reading of a pasted snippet had it)
    assert parse_launch_command("SGLANG_ENABLE_SPEC_V2=1\n" + PD_PAIR).env == {"SGLANG_ENABLE_SPEC_V2": "1"}


# ---------------------------------------------------------------------------------------------
# vLLM without "method": the method comes from the draft's name ("eagle-", "eagle3"), else it is
# draft_model, the EAGLE-3 head run as a plain LM (vllm/config/speculative.py `__post_init__`).
# A trained head in a directory named after its run has neither.
# ---------------------------------------------------------------------------------------------
def test_an_eagle3_head_without_method_or_telling_name_is_served_as_a_plain_draft():
    draft = json.loads((DEMO / "draft" / "config.json").read_text())  # speculators eagle3
    spec = '{"model": "/ckpt/qwen3-8b-specforge/epoch_9", "num_speculative_tokens": 3}'
    models = {"/ckpt/qwen3-8b-specforge/epoch_9": {"found": True, "path": "/ckpt/qwen3-8b-specforge/epoch_9",
                                                    "config": draft}}
    facts = launch_step.parse({"source": "var", "cmdline": f"vllm serve Qwen/Qwen3-8B --speculative-config '{spec}'",
                               "models": models})
    [sd103] = launch_step.check(context(facts))
    # before: nothing (no method, so no algorithm to compare)
    assert (sd103.code, sd103.severity) == ("SD103", "error")
    assert "vLLM runs the checkpoint as method draft_model" in sd103.evidence[0]
    with_method = spec.replace('"num_speculative_tokens"', '"method": "eagle3", "num_speculative_tokens"')
    facts = launch_step.parse({"source": "var", "models": models,
                               "cmdline": f"vllm serve Qwen/Qwen3-8B --speculative-config '{with_method}'"})
    assert launch_step.check(context(facts)) == []
    # SGLang's STANDALONE runs its draft as a plain LM too (server_args.py, sglang >= 0.5.2)
    standalone = ("python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B --speculative-algorithm STANDALONE "
                  "--speculative-draft-model-path /ckpt/qwen3-8b-specforge/epoch_9 --speculative-num-steps 3 "
                  "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    facts = launch_step.parse({"source": "var", "cmdline": standalone, "models": models})
    assert [f.code for f in launch_step.check(context(facts))] == ["SD103"]


# ---------------------------------------------------------------------------------------------
# A systemd unit pasted whole (systemd.service(5) ExecStart=, systemd.exec(5) Environment=): the
# service's command and the engine variables it runs with.
# ---------------------------------------------------------------------------------------------
SGLANG_UNIT = """[Unit]
Description=SGLang EAGLE-3 server
After=network-online.target

[Service]
User=llm
WorkingDirectory=/srv/llm
Environment="SGLANG_ENABLE_SPEC_V2=1" "HF_HOME=/data/hf"
ExecStart=/opt/venv/bin/python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\
    --speculative-algorithm EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \\
    --speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --port 30000
Restart=always

[Install]
WantedBy=multi-user.target
"""


def test_a_systemd_unit_gives_the_command_and_its_environment():
    cfg = parse_launch_command(SGLANG_UNIT)
    assert cfg.argv[cfg.argv.index("-m") - 1] == "/opt/venv/bin/python"
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (5, 8, 32)
    # before: the Environment= line was lost, and with it the spec v2 note; HF_HOME stays out
    assert cfg.env == {"SGLANG_ENABLE_SPEC_V2": "1"}
    facts = launch_step.parse({"source": "var", "cmdline": SGLANG_UNIT, "models": {}})
    found = launch_step.check(context(facts, {"engine": {"name": "sglang", "version": "0.5.9"}}))
    assert [f.code for f in found] == ["SD102"] and "SGLang 0.5.9 refuses to start" in found[0].evidence[0]


def test_standalone_with_dp_attention_is_refused_by_sglang():
    # SGLang's STANDALONE (a small LM of the target's family) on a DP-attention server: every
    # release with STANDALONE raises "Currently standalone speculative decoding does not support
    # dp attention." (PyPI wheels 0.5.2 .. 0.5.23)
    command = ("python3 -m sglang.launch_server --model-path Qwen/Qwen3-32B --tp 8 --dp 8 --enable-dp-attention "
               "--speculative-algorithm STANDALONE --speculative-draft-model-path Qwen/Qwen3-0.6B "
               "--speculative-num-steps 4 --speculative-eagle-topk 1 --speculative-num-draft-tokens 5")
    [problem] = effective_spec(parse_launch_command(command)).problems
    assert "SGLang refuses to start" in problem
    assert effective_spec(parse_launch_command(command.replace(" --enable-dp-attention", ""))).problems == []


# ---------------------------------------------------------------------------------------------
# Offline engines: the vLLM docs show speculative decoding as an `LLM(...)` call, SGLang's engine
# as `sgl.Engine(...)`; their keyword arguments are the server's flags.
# ---------------------------------------------------------------------------------------------
# vllm-project/vllm docs/features/spec_decode.md, "Speculating using EAGLE based draft models"
VLLM_DOCS_EAGLE = '''from vllm import LLM, SamplingParams

prompts = ["The future of AI is"]
sampling_params = SamplingParams(temperature=0.8, top_p=0.95)

llm = LLM(
    model="meta-llama/Meta-Llama-3-8B-Instruct",
    tensor_parallel_size=4,
    speculative_config={
        "model": "yuhuili/EAGLE-LLaMA3-Instruct-8B",
        "draft_tensor_parallel_size": 1,
        "num_speculative_tokens": 2,
        "method": "eagle",
    },
)
'''


def test_an_offline_engine_call_is_read_as_its_server_flags():
    cfg = parse_launch_command(VLLM_DOCS_EAGLE)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.algorithm, cfg.num_steps, cfg.tp) == (
        "vllm", "meta-llama/Meta-Llama-3-8B-Instruct", "yuhuili/EAGLE-LLaMA3-Instruct-8B", "EAGLE", 2, 4)
    engine = ('import sglang as sgl\n\nllm = sgl.Engine(model_path="meta-llama/Llama-2-7b-chat-hf", '
              'speculative_algorithm="EAGLE", speculative_draft_model_path="lmsys/sglang-EAGLE-llama2-chat-7B", '
              "speculative_num_steps=3, speculative_eagle_topk=4, speculative_num_draft_tokens=16)\n")
    cfg = parse_launch_command(engine)
    assert (cfg.engine, cfg.algorithm, cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == ("sglang", "EAGLE", 3, 4, 16)
    # a value computed elsewhere in the script is said to be missing, not guessed
    with pytest.raises(LaunchParseError, match="speculative_config is the Python expression 'spec'"):
        parse_launch_command("llm = LLM(model='m', speculative_config=spec)")


def test_the_probe_reads_the_draft_named_in_an_offline_engine_call():
    code = VLLM_DOCS_EAGLE.replace("yuhuili/EAGLE-LLaMA3-Instruct-8B", str(DEMO / "draft")).replace(
        '"num_speculative_tokens": 2', '"num_speculative_tokens": 1').replace('"eagle"', '"eagle3"')
    host = launch_flags.run({"server_cmdline": code})
    facts = launch_step.parse(json.loads(json.dumps(host)))
    # before: "not an SGLang or vLLM server command" (SD004)
    assert facts["launch"]["trained_steps"] == 3
    assert codes(launch_step.check(context(facts))) == [("SD101", "error")]


def test_a_lower_case_algorithm_is_refused_by_sglang_before_0_5_12():
    # vLLM's spelling ("method": "eagle3") carried over to SGLang; its parser had upper-case
    # `choices` up to 0.5.11 and upper-cases the value from 0.5.12 (PyPI wheels' server_args.py)
    cfg = parse_launch_command(SGLANG_PR4716.replace("--speculative-algo EAGLE3", "--speculative-algorithm eagle3")
                               .replace("--speculative-draft ", "--speculative-draft-model-path "))
    assert cfg.algorithm == "EAGLE3"
    [problem] = effective_spec(cfg, engine_version="0.5.11").problems
    assert "only accepts upper case (EAGLE3)" in problem
    assert effective_spec(cfg, engine_version="0.5.12").problems == effective_spec(cfg).problems == []
