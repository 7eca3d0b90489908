"""`python -m sglang.launch_server MODEL ...`: the model written as `vllm serve MODEL` takes it.

Only `sglang serve` turns a first word into --model-path (sgl-project/sglang python/sglang/cli/
serve.py `_normalize_positional_model_path`: "Allow `sglang serve <model>`"); launch_server.py
hands sys.argv[1:] to server_args.py `prepare_server_args`, whose `parser.parse_args(argv)` has no
positional, so argparse exits 2 with "unrecognized arguments" and the server never starts. Before:
no finding at all (and no model read). Now: SD102, the engine refuses this command at startup, with
the fix (`--model-path MODEL` or `sglang serve MODEL`). Placeholders and elisions a doc writes there
(`...`, `<model>`, `MODEL`, `$ARGS`) are not refusals.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

FLAGS = ("--speculative-algorithm EAGLE3 --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B "
         "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


@pytest.mark.parametrize("command", [
    f"python3 -m sglang.launch_server meta-llama/Llama-3.1-8B-Instruct {FLAGS}",
    f"python -m sglang.launch_server /models/llama-3.1-8b --port 30000 {FLAGS}",
    f"docker run --gpus all lmsysorg/sglang:v0.5.6 python3 -m sglang.launch_server meta-llama/Llama-3.1-8B-Instruct {FLAGS}",
])
def test_a_positional_model_is_a_startup_refusal(command):
    with pytest.raises(LaunchParseError, match="argparse exits with 'unrecognized arguments: ") as raised:
        parse_launch_command(command)
    assert raised.value.hint.startswith("write --model-path ")
    (finding,) = _findings(command)
    assert (finding.code, finding.severity) == ("SD102", "error")


@pytest.mark.parametrize("command", [
    f"python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct {FLAGS}",
    f"sglang serve meta-llama/Llama-3.1-8B-Instruct {FLAGS}",
    "python -m sglang.launch_server ...",
    f"python -m sglang.launch_server <model> {FLAGS}",
    f"python -m sglang.launch_server MODEL {FLAGS}",
    'python -m sglang.launch_server "$@"',
])
def test_no_refusal_for_the_flag_form_sglang_serve_or_a_placeholder(command):
    parse_launch_command(command)
    assert "SD102" not in [f.code for f in _findings(command)]


def test_sglang_serve_still_reads_the_first_word_as_the_model():
    cfg = parse_launch_command(f"sglang serve meta-llama/Llama-3.1-8B-Instruct {FLAGS}")
    assert (cfg.target_model, cfg.num_steps) == ("meta-llama/Llama-3.1-8B-Instruct", 3)
