"""`vllm serve MODEL OTHER ...`: a second word that is no flag right after vLLM's model.

vLLM's parser has one positional, model_tag (nargs "?", vllm/entrypoints/openai/cli_args.py
make_arg_parser): it takes the model, and argparse exits with "unrecognized arguments: OTHER". The
real case is a model path with a space left unquoted (vllm-project/vllm issue #15439: `vllm serve
/mnt/f/AI/AI Models/mistralai__Mistral-Small-3.1-24B-Instruct-2503 ...` -> "vllm: error:
unrecognized arguments: Models/mistralai__...").

Before: the first word was read as the model (`/mnt/f/AI/AI`), the next one dropped, and the
command audited as if it ran. Now: SD102 "The engine refuses this launch command at startup"
(error) naming the word and asking to quote the path; a shell expansion, a doc's placeholder and
the shell's own words after the command (redirections, pipes) are not refused.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = ("--speculative-config '{\"method\": \"eagle3\", \"model\": \"AngelSlim/Qwen3-8B_eagle3\", "
        "\"num_speculative_tokens\": 3}'")


def _audit(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_path_with_a_space_left_unquoted() -> None:
    _, findings = _audit(f"vllm serve /mnt/f/AI/AI Models/Qwen3-8B --tensor-parallel-size 1 {SPEC}")
    assert [(f.code, f.severity, f.title) for f in findings] == [
        ("SD102", "error", "The engine refuses this launch command at startup")]
    assert findings[0].evidence == [
        "vllm: 'Models/Qwen3-8B' right after the model /mnt/f/AI/AI is a second positional argument: the server "
        "takes one, the model, so argparse exits with 'unrecognized arguments: Models/Qwen3-8B' and the server does "
        "not start; quote the model path if it holds a space ('/mnt/f/AI/AI Models/Qwen3-8B'), or remove "
        "'Models/Qwen3-8B'"]


@pytest.mark.parametrize("command", [
    f"vllm serve Qwen/Qwen3-8B eagle3 {SPEC}",
    f"docker run --gpus all vllm/vllm-openai:v0.18.0 Qwen/Qwen3-8B eagle3 {SPEC}",
    f"python3 -m vllm.entrypoints.openai.api_server Qwen/Qwen3-8B eagle3 {SPEC}",
])
def test_a_stray_word_after_the_model(command: str) -> None:
    launch, findings = _audit(command)
    assert launch["refused"] is True
    assert [(f.code, f.severity) for f in findings] == [("SD102", "error")]
    assert findings[0].evidence[0].startswith(
        "vllm: 'eagle3' right after the model Qwen/Qwen3-8B is a second positional argument")


@pytest.mark.parametrize("command", [
    f"vllm serve $MODEL $SERVE_ARGS {SPEC}",                   # expansions: the words are not in the text
    f"vllm serve Qwen/Qwen3-8B \"$@\" {SPEC}",
    f"vllm serve MODEL ARGS {SPEC}",                           # a doc's placeholders
    f"vllm serve Qwen/Qwen3-8B ... {SPEC}",
    f"vllm serve Qwen/Qwen3-8B {SPEC} > vllm.log 2>&1 &",      # the shell's words, not the server's
    f"CUDA_VISIBLE_DEVICES=0 vllm serve Qwen/Qwen3-8B {SPEC} 2>&1 | tee serve.log",
    f"vllm serve Qwen/Qwen3-8B \\\n    {SPEC}",
    f"vllm serve Qwen/Qwen3-8B --served-model-name qwen qwen-eagle3 {SPEC}",  # names: nargs "+"
])
def test_commands_it_starts(command: str) -> None:
    launch, findings = _audit(command)
    assert launch["found"] is True and findings == []
