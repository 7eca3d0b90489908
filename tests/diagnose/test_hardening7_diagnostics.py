"""Hardening 7: the launch audit reads what the engine really runs (`--config FILE.yaml`, SD101
for drafts that are not trained for a depth).

Each test is a user story spec-debug got wrong before; the source of every input is cited.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from spec_debug.diagnose.config_file import merge_config
from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step, throughput_step
from spec_debug.probes import launch_flags
from spec_debug.probes.registry import ProbeContext
from tests.diagnose.fake_servers import server_process

DEMO = Path(__file__).resolve().parents[2] / "spec_debug" / "data" / "demo"


def context(facts: dict, host_facts: dict | None = None) -> ProbeContext:
    return ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                        host_facts={**(host_facts or {}), **facts})


def codes(findings) -> list[tuple[str, str]]:
    return [(f.code, f.severity) for f in findings]


# vllm-project/vllm vllm/utils/argparse_utils.py, `load_config_file` docstring: the nested
# speculative-config form of a vLLM YAML flag file.
VLLM_YAML = """\
compilation-config:
  pass_config:
    fuse_allreduce_rms: true
speculative-config:
  model: "nvidia/gpt-oss-120b-Eagle3-v2"
  num_speculative_tokens: {k}
  method: eagle3
"""
# sgl-project/sglang docs/advanced_features/server_arguments.md ("config file" example) with
# the speculative flags of docs/advanced_features/speculative_decoding.ipynb's EAGLE-3 cell.
SGLANG_YAML = """\
model-path: meta-llama/Llama-3.1-8B-Instruct
host: 0.0.0.0
port: 30000
tensor-parallel-size: 2
enable-metrics: true
log-requests: true
speculative-algorithm: EAGLE3
speculative-draft-model-path: jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B
speculative-num-steps: {steps}
speculative-eagle-topk: 1
speculative-num-draft-tokens: {tokens}
"""


def host_with_config(tmp_path: Path, cmdline: str, name: str, text: str) -> dict:
    (tmp_path / name).write_text(text)
    return launch_flags.run({"server_cmdline": cmdline.replace("CFG", str(tmp_path / name))})


def test_vllm_speculative_config_in_a_yaml_file_is_audited(tmp_path):
    host = host_with_config(tmp_path, "vllm serve openai/gpt-oss-120b --config CFG", "serve.yaml",
                            VLLM_YAML.format(k=1))
    assert host["config_file"]["text"] is not None
    facts = launch_step.parse(json.loads(json.dumps(host)))
    launch = facts["launch"]
    assert (launch["target_model"], launch["draft_model"], launch["num_steps"]) == (
        "openai/gpt-oss-120b", "nvidia/gpt-oss-120b-Eagle3-v2", 1)
    assert launch["config_file"].endswith("serve.yaml")
    # one speculative token is the SD101 cap, found although the command line names no draft
    assert [c for c, _ in codes(launch_step.check(context(facts)))] == ["SD101"]


def test_the_command_line_overrides_the_config_file_as_the_engine_does(tmp_path):
    host = host_with_config(
        tmp_path, "vllm serve openai/gpt-oss-120b --config CFG "
                  """--speculative-config '{"method": "eagle3", "model": "nvidia/gpt-oss-120b-Eagle3-v2", """
                  """"num_speculative_tokens": 3}'""", "serve.yml", VLLM_YAML.format(k=1))
    facts = launch_step.parse(json.loads(json.dumps(host)))
    assert facts["launch"]["num_steps"] == 3
    assert launch_step.check(context(facts)) == []


def test_vllm_positional_model_wins_over_the_files_model():
    # vllm docs/configuration/serve_args.md: `model:` in the file; the positional wins
    argv = merge_config(["vllm", "serve", "Qwen/Qwen3-8B", "--config", "c.yaml"],
                        "model: meta-llama/Llama-3.1-8B-Instruct\nport: 6379\n")
    assert argv[:3] == ["vllm", "serve", "Qwen/Qwen3-8B"]
    assert parse_launch_command(argv).target_model == "Qwen/Qwen3-8B"
    alone = merge_config(["vllm", "serve", "--config", "c.yaml"], "model: meta-llama/Llama-3.1-8B-Instruct\n")
    assert parse_launch_command(alone).target_model == "meta-llama/Llama-3.1-8B-Instruct"


def test_sglang_config_file_flags_are_read_and_cli_wins(tmp_path):
    cmd = "python3 -m sglang.launch_server --config CFG --speculative-num-steps 5 --speculative-num-draft-tokens 6"
    host = host_with_config(tmp_path, cmd, "sglang.yaml", SGLANG_YAML.format(steps=1, tokens=2))
    facts = launch_step.parse(json.loads(json.dumps(host)))
    launch = facts["launch"]
    assert (launch["target_model"], launch["tp"], launch["num_steps"], launch["num_draft_tokens"]) == (
        "meta-llama/Llama-3.1-8B-Instruct", 2, 5, 6)
    host = host_with_config(tmp_path, "python3 -m sglang.launch_server --config CFG", "sglang.yaml",
                            SGLANG_YAML.format(steps=1, tokens=2))
    assert [c for c, _ in codes(launch_step.check(context(launch_step.parse(host))))] == ["SD101"]


def test_a_config_file_the_probe_cannot_open_says_why(tmp_path):
    host = launch_flags.run({"server_cmdline": f"vllm serve Qwen/Qwen3-8B --config {tmp_path}/missing.yaml"})
    facts = launch_step.parse(host)
    [line] = launch_step.check(context(facts))
    assert line.code == "SD004" and "No such file" in line.evidence[0]


@pytest.mark.parametrize("name, text, words, code", [
    # "refuses to start": a server that does not start is an error (hardening69), not SD004
    ("serve.json", "{}", ".yaml/.yml", "SD102"),
    ("serve.yaml", "- --port\n- '8000'\n", "mapping", "SD004"),
    ("serve.yaml", "speculative-config: {method: eagle3\n", "not valid YAML", "SD102"),
])
def test_a_config_file_the_engine_refuses_is_one_clear_line(tmp_path, name, text, words, code):
    host = host_with_config(tmp_path, "vllm serve Qwen/Qwen3-8B --config CFG", name, text)
    [line] = launch_step.check(context(launch_step.parse(host)))
    assert line.code == code and words in line.evidence[0]


def test_config_with_equals_is_never_opened_by_the_engine(tmp_path):
    # `"--config" in args` (vLLM) / `arg == "--config"` (SGLang): `--config=f.yaml` is not read
    host = host_with_config(tmp_path, "vllm serve openai/gpt-oss-120b --config=CFG", "serve.yaml",
                            VLLM_YAML.format(k=1))
    assert "config_file" not in host
    findings = launch_step.check(context(launch_step.parse(host)))
    assert codes(findings) == [("SD004", "info")] and "never opened" in findings[0].evidence[0]


def test_two_config_files_are_refused_like_the_engine():
    with pytest.raises(LaunchParseError, match="more than one"):
        merge_config(["vllm", "serve", "m", "--config", "a.yaml", "--config", "b.yaml"], "{}")


# ---------------------------------------------------------------------------------------------
# SD101 for drafts that are not trained for a depth
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang docs/advanced_features/speculative_decoding.ipynb, "Standalone Speculative
# Decoding" (here with one step); vLLM docs/features/spec_decode.md, "Speculating by matching
# n-grams in the prompt" (here with one token).
SGLANG_STANDALONE = ("python3 -m sglang.launch_server --model Qwen/Qwen2.5-7B-Instruct --speculative-algorithm "
                     "STANDALONE --speculative-draft-model-path Qwen/Qwen2.5-1.5B-Instruct --speculative-num-steps 1 "
                     "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --cuda-graph-max-bs 8")
VLLM_NGRAM = ("vllm serve Qwen/Qwen3-8B --speculative-config "
              """'{"method": "ngram", "num_speculative_tokens": 1, "prompt_lookup_max": 4}'""")


@pytest.mark.parametrize("command, what", [(SGLANG_STANDALONE, "STANDALONE"), (VLLM_NGRAM, "n-gram")])
def test_one_step_of_an_untrained_drafter_is_not_compared_with_a_trained_depth(command, what):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    [finding] = launch_step.check(context(facts))
    assert (finding.code, finding.severity) == ("SD101", "warning")
    assert what in finding.evidence[-1] and "not trained for a number of steps" in finding.evidence[-1]
    assert not any("draft config does not say" in line for line in finding.evidence)
    assert "3" in finding.remediation


def test_a_standalone_draft_with_mtp_layers_is_not_read_as_trained_for_them():
    # Qwen/Qwen3-Next-80B-A3B-Instruct config.json carries num_nextn_predict_layers (its MTP
    # module); served as a STANDALONE draft it is a plain LM, not a depth-1..N MTP drafter
    draft = {"architectures": ["Qwen3NextForCausalLM"], "model_type": "qwen3_next", "num_nextn_predict_layers": 4,
             "hidden_size": 2048, "num_hidden_layers": 48, "torch_dtype": "bfloat16", "vocab_size": 151936}
    command = SGLANG_STANDALONE.replace("Qwen/Qwen2.5-1.5B-Instruct", "Qwen/Qwen3-Next-80B-A3B-Instruct")
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {
        "Qwen/Qwen3-Next-80B-A3B-Instruct": {"found": True, "path": "/m/q3n", "config": draft}}})
    assert facts["launch"]["trained_steps"] is None
    assert codes(launch_step.check(context(facts))) == [("SD101", "warning")]


# ---------------------------------------------------------------------------------------------
# argparse abbreviations: SGLang accepts a unique prefix and refuses an ambiguous one
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang docs/advanced_features/speculative_decoding.ipynb, EAGLE-3 cell, with the
# steps flag abbreviated as people type it
SGLANG_EAGLE3 = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
                 "EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B {steps} "
                 "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --mem-fraction 0.6 "
                 "--cuda-graph-max-bs 2 --dtype float16")


def test_a_unique_abbreviation_is_read_as_the_full_flag():
    cfg = parse_launch_command(SGLANG_EAGLE3.format(steps="--speculative-num-st 5"))
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (5, 8, 32)


def test_an_ambiguous_abbreviation_is_refused_as_sglang_refuses_it():
    command = SGLANG_EAGLE3.format(steps="--speculative-num 5").replace(" --speculative-num-draft-tokens 32", "")
    with pytest.raises(LaunchParseError, match="ambiguous.*--speculative-num-draft-tokens, --speculative-num-steps"):
        parse_launch_command(command)
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    [line] = launch_step.check(context(facts))
    # argparse exits, the server does not start: an error (hardening69), no longer SD004 info
    assert (line.code, line.severity) == ("SD102", "error") and "ambiguous" in line.evidence[0]


# ---------------------------------------------------------------------------------------------
# SGLang --speculative-adaptive: the steps move at runtime; topk > 1 turns it off
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang python/sglang/srt/arg_groups/speculative_hook.py (`handle_speculative_decoding`,
# `_init_adaptive_speculative_params`) and speculative/adaptive_spec_params.py (the default
# candidate steps, `adaptive_unsupported_reason`); the launch is the docs' EAGLE-3 cell.
SGLANG_ADAPTIVE = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
                   "EAGLE3 --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
                   "--speculative-adaptive {extra}")


def test_adaptive_without_steps_starts_at_the_middle_candidate_not_the_auto_choice():
    from spec_debug.diagnose.launch import effective_spec

    eff = effective_spec(parse_launch_command(SGLANG_ADAPTIVE.format(extra="")),
                         target_architecture="LlamaForCausalLM")
    # auto-choose would say (5, 4, 8) for Llama; adaptive skips it and starts at (3, 1, 4)
    assert (eff.num_steps, eff.topk, eff.num_draft_tokens, eff.adaptive, eff.auto_chosen) == (3, 1, 4, True, False)


def test_adaptive_one_step_is_a_starting_point_not_an_sd101_cap():
    command = SGLANG_ADAPTIVE.format(extra="--speculative-num-steps 1 --speculative-eagle-topk 1 "
                                           "--speculative-num-draft-tokens 2")
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    assert launch_step.check(context(facts)) == []


def test_adaptive_with_a_tree_falls_back_to_static_params_and_says_so():
    command = SGLANG_ADAPTIVE.format(extra="--speculative-num-steps 5 --speculative-eagle-topk 8 "
                                           "--speculative-num-draft-tokens 32")
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    [finding] = launch_step.check(context(facts))
    assert finding.code == "SD102" and "only topk=1" in finding.evidence[0]
    assert facts["launch"]["effective"]["adaptive"] is False


def test_adaptive_steps_outside_the_candidates_is_refused_like_sglang():
    command = SGLANG_ADAPTIVE.format(extra="--speculative-num-steps 2 --speculative-eagle-topk 1")
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    [finding] = launch_step.check(context(facts))
    assert finding.code == "SD102" and "not in the adaptive candidate steps [0, 1, 3, 5, 7]" in finding.evidence[0]


# ---------------------------------------------------------------------------------------------
# Engine environment: SGLANG_ENABLE_SPEC_V2 with a tree
# ---------------------------------------------------------------------------------------------
# The SGLang docs' EAGLE-3 tree settings (steps 5, topk 8, 32 draft tokens) with SpecV2 asked
# for, as the AMD/NPU launch scripts in sgl-project/sglang export it.
SGLANG_TREE = SGLANG_EAGLE3.format(steps="--speculative-num-steps 5")


def test_spec_v2_with_a_tree_says_it_runs_spec_v1():
    facts = launch_step.parse({"source": "var", "cmdline": "SGLANG_ENABLE_SPEC_V2=1 " + SGLANG_TREE, "models": {}})
    [finding] = launch_step.check(context(facts))
    assert finding.code == "SD102" and "spec v1" in finding.evidence[0] and "topk 8" in finding.evidence[0]
    # topk 1 is what spec v2 runs: nothing to say
    chain = SGLANG_TREE.replace("--speculative-eagle-topk 8", "--speculative-eagle-topk 1").replace(
        "--speculative-num-draft-tokens 32", "--speculative-num-draft-tokens 6")
    facts = launch_step.parse({"source": "var", "cmdline": "SGLANG_ENABLE_SPEC_V2=true " + chain, "models": {}})
    assert launch_step.check(context(facts)) == []


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_a_running_servers_environment_and_relative_config_file_are_read(tmp_path, monkeypatch):
    # `cd /srv/llama && SGLANG_ENABLE_SPEC_V2=1 python -m sglang.launch_server --config serve.yaml`
    # (a systemd unit's Environment= line): the flags and the variable are only in the process
    (tmp_path / "serve.yaml").write_text(SGLANG_YAML.format(steps=5, tokens=32).replace(
        "speculative-eagle-topk: 1", "speculative-eagle-topk: 8"))
    argv = [sys.executable, "-c", "import time; time.sleep(30)", "-m", "sglang.launch_server", "--config", "serve.yaml"]
    env = {**os.environ, "SGLANG_ENABLE_SPEC_V2": "1", "HF_TOKEN": "hf_secret"}
    with server_process(argv, cwd=tmp_path, env=env) as process:
        monkeypatch.setattr(launch_flags, "server_processes", lambda: [process])
        host = launch_flags.run({"server_cmdline": ""})
    assert host["server_env"]["SGLANG_ENABLE_SPEC_V2"] == "1" and "HF_TOKEN" not in host["server_env"]
    facts = launch_step.parse(json.loads(json.dumps(host)))
    assert (facts["launch"]["num_steps"], facts["launch"]["topk"]) == (5, 8)
    [finding] = launch_step.check(context(facts))
    assert finding.code == "SD102" and "spec v1" in finding.evidence[0]


# ---------------------------------------------------------------------------------------------
# `sglang serve MODEL`: the positional is the model
# ---------------------------------------------------------------------------------------------
# A Qwen3-8B EAGLE-3 launch (the Hub draft Tengyunw/qwen3_8b_eagle3) written with `sglang serve`,
# whose usage line is `sglang serve <model-name-or-path> [additional-arguments]` (python/sglang/cli/serve.py)
SGLANG_SERVE = ("sglang serve Qwen/Qwen3-8B --speculative-algorithm EAGLE3 --speculative-draft-model-path "
                "Tengyunw/qwen3_8b_eagle3 --speculative-num-steps 6 --speculative-eagle-topk 10 "
                "--speculative-num-draft-tokens 32 --mem-fraction-static 0.9 --cuda-graph-max-bs 2 --dtype bfloat16")


def test_sglang_serve_positional_model_is_the_target():
    assert parse_launch_command(SGLANG_SERVE).target_model == "Qwen/Qwen3-8B"


def test_sglang_serve_positional_model_beats_the_config_files_model_path():
    argv = merge_config(["sglang", "serve", "Qwen/Qwen3-8B", "--config", "serve.yaml"],
                        SGLANG_YAML.format(steps=3, tokens=4))
    cfg = parse_launch_command(argv)
    assert (cfg.target_model, cfg.num_steps, cfg.tp) == ("Qwen/Qwen3-8B", 3, 2)


# ---------------------------------------------------------------------------------------------
# Throughput model with a tree whose verify budget is shorter than its steps
# ---------------------------------------------------------------------------------------------
# sgl-project/sglang scripts/playground/bench_speculative.py sweeps (steps, topk, draft tokens)
# such as (5, 8, 4): 5 steps drafted, 3 tree nodes verified, so no round accepts more than 3.
SGLANG_SWEEP = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
                "--speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B "
                "--speculative-num-steps 5 --speculative-eagle-topk 8 --speculative-num-draft-tokens 4")


def test_a_tree_with_a_short_verify_budget_is_not_predicted_deeper_than_it_verifies():
    launch = launch_step.parse({"source": "var", "cmdline": SGLANG_SWEEP, "models": {}})
    # SGLang's decode line (issue #11948 format): 3.40 of the at most 4 tokens a round can emit
    lines = [f"[2025-10-22 10:27:5{i} TP0] Decode batch. #running-req: 1, #token: {108 + 70 * i}, token usage: 0.00, "
             f"accept len: 3.40, accept rate: 0.85, cuda graph: True, gen throughput (token/s): {v}, #queue-req: 0, "
             for i, v in enumerate((161.0, 162.0, 160.5))]
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "90"}})
    host = {**launch, "eval": {"reference": {"steps": 5, "reference": "target_argmax",
                                             "target_conditional_acceptance": [0.9] * 5}}}
    found = throughput_step.check(context(facts, host))
    # before: the 5-deep chain's 4.69 made 3.40 look like lost acceptance (SD502 error)
    assert "SD502" not in [f.code for f in found]
    assert round(facts["throughput"]["predicted_accept_length_reference"], 3) == 3.439
    assert any("only 4 draft tokens are verified" in note for note in facts["throughput"]["model"]["notes"])


@pytest.mark.parametrize("prefix", [
    "export SGLANG_ENABLE_SPEC_V2=1 && ",
    "export SGLANG_ENABLE_SPEC_V2=1; ",
    # a launch script's lines, as the sgl-project/sglang AMD/NPU scripts write them
    "export SGLANG_ENABLE_SPEC_V2=1\nexport SGLANG_ENABLE_OVERLAP_PLAN_STREAM=1\n",
])
def test_variables_exported_before_the_server_are_its_environment(prefix):
    cfg = parse_launch_command(prefix + SGLANG_TREE)
    assert cfg.env["SGLANG_ENABLE_SPEC_V2"] == "1" and cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    facts = launch_step.parse({"source": "var", "cmdline": prefix + SGLANG_TREE, "models": {}})
    assert [f.code for f in launch_step.check(context(facts))] == ["SD102"]


def test_models_named_only_in_the_config_file_are_read_on_the_host(tmp_path):
    # the draft is a SpecForge output directory named only in the YAML file: its config says it
    # was trained for 3 steps, so the file's one step is the SD101 error, not a guess
    draft = tmp_path / "outputs" / "llama3-8b-eagle3"
    draft.mkdir(parents=True)
    (draft / "config.json").write_text((DEMO / "draft" / "config.json").read_text())
    text = SGLANG_YAML.format(steps=1, tokens=2).replace("jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B",
                                                         f'"{draft}"  # SpecForge --output-dir')
    host = host_with_config(tmp_path, "python3 -m sglang.launch_server --config CFG", "serve.yaml", text)
    assert str(draft) in host["models"]
    facts = launch_step.parse(json.loads(json.dumps(host)))
    assert facts["launch"]["trained_steps"] == 3
    assert codes(launch_step.check(context(facts))) == [("SD101", "error")]


@pytest.mark.parametrize("flag, capped", [("", True), (" --max-running-requests 128", False),
                                          (" --max-running 128", False), (" --max-running-requests=128", False)])
def test_an_abbreviated_max_running_requests_lifts_the_48_request_cap(flag, capped):
    launch = launch_step.parse({"source": "var", "cmdline": SGLANG_TREE + flag, "models": {}})
    lines = [f"[2025-10-22 10:27:5{i} TP0] Decode batch. #running-req: 48, #token: {9000 + 70 * i}, token usage: 0.30, "
             f"accept len: 3.10, accept rate: 0.52, cuda graph: True, gen throughput (token/s): {v}, #queue-req: 16, "
             for i, v in enumerate((1610.0, 1620.0, 1605.5))]
    facts = throughput_step.parse({"found": True, "path": "server.log", "lines": lines,
                                   "args": {"baseline_tok_s": "2400"}})
    [sd501] = [f for f in throughput_step.check(context(facts, launch)) if f.code == "SD501"]
    assert any("48 running requests" in line for line in sd501.evidence) is capped


def test_an_unreadable_config_file_is_said_even_when_the_command_line_speculates(tmp_path):
    command = f"{SGLANG_STANDALONE} --config {tmp_path}/missing.yaml"
    facts = launch_step.parse(launch_flags.run({"server_cmdline": command}))
    found = launch_step.check(context(facts))
    assert [f.code for f in found] == ["SD004", "SD101"] and "audited the command line alone" in found[0].evidence[0]
