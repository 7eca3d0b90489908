"""A Python engine call's findings name the keywords the call is written with, not command-line flags.

A script that builds `sgl.Engine(..., speculative_num_steps=1, ...)` writes no command line. The
launch audit still said "launch command: --speculative-num-steps 1" (SD101) with the fix "Serve with
3 steps: --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
"--speculative-algorithm EAGLE" (SD103), "Pass --dtype bfloat16" (SD104), and the SGLang rules'
lines ("--speculative-num-steps is set but --speculative-eagle-topk is not: ... the server does not
start"): flags the user has nowhere to put. A vLLM `LLM(..., speculative_config={...})` was told
`"num_speculative_tokens": 1 in --speculative-config`. Now each is said as the call's keyword
(`speculative_num_steps=1`, `speculative_algorithm="EAGLE3"`, `dtype="bfloat16"`,
`speculative_config={"num_speculative_tokens": 1}`), and the engine call, not a server, that does
not start: Engine(**kwargs) builds ServerArgs(**kwargs), whose fields are the options' dest names
(sgl-project/sglang python/sglang/srt/entrypoints/engine.py `Engine.__init__`). The command line
keeps its flags.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_dtype
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

_TARGET = "meta-llama/Llama-3.1-8B-Instruct"
_ENGINE = ("import sglang as sgl\n\nllm = sgl.Engine(model_path=\"" + _TARGET + "\", {})\n")
_CLI = "python -m sglang.launch_server --model-path " + _TARGET + " {}"


def _findings(text: str, engine: str = "sglang", version: str = "0.5.13"):
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    host_facts = dict(facts, engine={"name": engine, "version": version})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return launch_step.check(ctx)


def test_one_step_is_said_as_the_keyword_and_so_is_the_fix() -> None:
    [sd101] = _findings(_ENGINE.format(
        'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3-draft", '
        "speculative_num_steps=1, speculative_eagle_topk=1, speculative_num_draft_tokens=2"))
    assert sd101.code == "SD101"
    assert sd101.evidence[0] == "launch command: speculative_num_steps=1"
    assert "`speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4` (SGLang)" in (
        sd101.remediation)
    # the command line keeps its flags
    [cli] = _findings(_CLI.format("--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3-draft "
                                  "--speculative-num-steps 1 --speculative-eagle-topk 1 "
                                  "--speculative-num-draft-tokens 2"))
    assert cli.evidence[0] == "launch command: --speculative-num-steps 1"


def test_an_eagle3_draft_served_as_eagle_is_told_the_algorithm_keyword() -> None:
    found = _findings(_ENGINE.format(
        'speculative_algorithm="EAGLE", speculative_draft_model_path="/models/sglang-EAGLE3-LLaMA3.1-Instruct-8B", '
        "speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4"))
    [sd103] = [f for f in found if f.code == "SD103"]
    assert sd103.evidence[0] == 'launch command: speculative_algorithm="EAGLE"'
    assert sd103.remediation.startswith('Serve it with speculative_algorithm="EAGLE3" (or check its config.json')


def test_the_rules_lines_name_the_keywords_and_the_engine_call() -> None:
    cfg = parse_launch_command(_ENGINE.format(
        'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3-draft", '
        "speculative_num_steps=5, speculative_num_draft_tokens=8"))
    assert list(effective_spec(cfg, engine_version="0.5.13").problems) == [
        "speculative_num_steps is set but speculative_eagle_topk is not: SGLang does not auto-choose once the steps "
        "are written and compares the unset topk (`speculative_eagle_topk > 1`): TypeError at startup, Engine(...) "
        "does not start; set all three (or none)"]
    cfg = parse_launch_command(_ENGINE.format(
        'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3-draft", '
        "speculative_num_steps=5, speculative_eagle_topk=1, speculative_num_draft_tokens=8"))
    assert list(effective_spec(cfg, engine_version="0.5.13").overrides) == [
        "speculative_num_draft_tokens=8 is overwritten to 6 (steps + 1) because topk is 1 (SGLang server_args.py, "
        "with a log warning)"]
    cfg = parse_launch_command(_ENGINE.format(
        'speculative_algorithm="STANDALONE", speculative_draft_model_path="Qwen/Qwen3-0.6B", '
        "enable_dp_attention=True"))
    assert list(effective_spec(cfg, engine_version="0.5.13").problems) == [
        'speculative_algorithm="STANDALONE" with enable_dp_attention=True: SGLang refuses to start ("Currently '
        'standalone speculative decoding does not support dp attention.")']


def test_the_dtype_fix_is_the_dtype_keyword() -> None:
    cfg = parse_launch_command(_ENGINE.format(
        'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3-draft"'))
    [sd104] = check_dtype(cfg, {"torch_dtype": "float16"}, {"torch_dtype": "bfloat16"})
    assert sd104.evidence[1] == "launch command sets no dtype (got none)"
    assert sd104.remediation == 'Pass dtype="bfloat16" explicitly.'


def test_a_vllm_call_is_told_its_speculative_config_keyword() -> None:
    text = ("from vllm import LLM\n\nllm = LLM(model=\"" + _TARGET + "\", speculative_config={\"method\": \"eagle3\", "
            "\"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 1})\n")
    [sd101] = _findings(text, engine="vllm", version="0.11.0")
    assert sd101.evidence[0] == 'launch command: speculative_config={"num_speculative_tokens": 1}'
