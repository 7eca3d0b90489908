"""A switch written before a positional word does not take that word as its value.

argparse reads options and positionals in any order, so `vllm serve --async-scheduling
Qwen/Qwen3-8B ...` serves Qwen/Qwen3-8B with async scheduling on. The launch reader judged a
flag valueless by its name's prefix (enable-, disable-, no-, ...) only: a switch without one
(--async-scheduling, --headless, SGLang's --sleep-on-idle) ate the next word, so the audit read
no model and a switch set to a model name, and a script line ending in such a switch pulled the
next line's command into the server's flags.
"""

from __future__ import annotations

from typing import Any

import pytest

from spec_debug.diagnose.launch import parse_launch_command, read_flags
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

NGRAM = "'{\"method\": \"ngram\", \"num_speculative_tokens\": 4, \"prompt_lookup_max\": 4}'"
EAGLE3 = ("'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
          "\"num_speculative_tokens\": 3}'")


def _audit(command: str) -> tuple[dict[str, Any], list[Any]]:
    host = {"source": "var", "cmdline": command, "models": {}, "config_file": None}
    facts = launch_step.parse(host)
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts, launch_step.check(ctx)


def test_async_scheduling_before_the_model_serves_that_model() -> None:
    cfg = parse_launch_command(f"vllm serve --async-scheduling Qwen/Qwen3-8B --speculative-config {NGRAM}")
    assert cfg.target_model == "Qwen/Qwen3-8B"
    assert cfg.flags["async-scheduling"] is True
    assert cfg.algorithm == "NGRAM" and cfg.num_steps == 4
    # `--switch=value` stays as written
    flags, positionals = read_flags(["--async-scheduling=true", "Qwen/Qwen3-8B"])
    assert flags == {"async-scheduling": "true"} and positionals == ["Qwen/Qwen3-8B"]


def test_the_async_ngram_refusal_still_names_the_model() -> None:
    facts, findings = _audit(f"vllm serve --async-scheduling Qwen/Qwen3-8B --speculative-config {NGRAM} "
                             "--max-model-len 8192")
    assert facts["launch"]["target_model"] == "Qwen/Qwen3-8B"
    assert facts["resolved_target_model"] == "Qwen/Qwen3-8B"
    assert [f.code for f in findings] == ["SD102"]
    assert "--async-scheduling with method ngram: vLLM refuses to start" in findings[0].evidence[0]


@pytest.mark.parametrize("switch", [
    "--headless",                       # make_arg_parser, store_true
    "--return-tokens-as-token-ids",     # FrontendArgs bool field
    "--data-parallel-hybrid-lb",        # ParallelConfig bool field (BooleanOptionalAction)
    "--fully-sharded-loras",            # store_true in vLLM 0.7, a LoRAConfig bool since
    "--async_scheduling",               # vLLM turns `_` into `-`
])
def test_each_kind_of_vllm_switch_before_the_model(switch: str) -> None:
    cfg = parse_launch_command(f"vllm serve {switch} meta-llama/Llama-3.1-8B-Instruct "
                               f"--speculative-config {EAGLE3} --tensor-parallel-size 2")
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.flags[switch.lstrip("-").replace("_", "-")] is True
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" and cfg.tp == 2


def test_two_unhinted_switches_in_a_row_before_the_model() -> None:
    cfg = parse_launch_command("vllm serve --headless --async-scheduling Qwen/Qwen3-8B --data-parallel-size 2")
    assert cfg.target_model == "Qwen/Qwen3-8B"
    assert cfg.flags["headless"] is True and cfg.flags["async-scheduling"] is True


@pytest.mark.parametrize("switch", ["--sleep-on-idle", "--stream-output", "--is-embedding",
                                    "--weight-loader-disable-mmap", "--triton-attention-reduce-in-fp32"])
def test_an_sglang_switch_takes_no_word_after_it(switch: str) -> None:
    flags, positionals = read_flags(["--model-path", "meta-llama/Llama-3.1-8B-Instruct", switch, "extra"])
    assert flags[switch[2:]] is True
    assert positionals == ["extra"]


def test_an_sglang_script_line_ending_in_a_switch_ends_the_server_command() -> None:
    # the next line is the benchmark's command, not the switch's value continued
    script = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
              "--speculative-algorithm EAGLE3 --speculative-draft-model-path "
              "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
              "--speculative-eagle-topk 8 --speculative-num-draft-tokens 32 --sleep-on-idle\n"
              "python3 bench.py --port 30001\n")
    cfg = parse_launch_command(script)
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    assert cfg.flags["sleep-on-idle"] is True
    assert "port" not in cfg.flags
    assert (cfg.num_steps, cfg.topk, cfg.num_draft_tokens) == (5, 8, 32)
