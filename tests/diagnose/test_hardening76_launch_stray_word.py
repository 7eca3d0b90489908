"""A word the server's argparse takes for a positional argument: a second value, or true/false after a switch.

`--speculative-num-steps 3 4` (an edit that left the old value behind) and `--trust-remote-code true`
(a switch written as a config file's `trust-remote-code: true`, common in a Deployment's `args:`)
both leave a word that no option takes. sglang.launch_server parses with `parser.parse_args` and has
no positional argument; `vllm serve` has one, the model, already given (FlexibleArgumentParser moves
`--model M` to the front, vllm/utils/argparse_utils.py). argparse exits with "unrecognized arguments:
4" and the server does not start. Before: the word was dropped and the command audited as if it ran
(no finding, or findings about a server that never started). Now: SD102 "The engine refuses this
launch command at startup", naming the word, the option before it, and what to write. Options that
take several values (`--cuda-graph-bs 1 2 4`, `--served-model-name a b`), the model of `vllm serve`,
and servers whose parser keeps unknown words (KServe) or is their own (Dynamo) are left alone.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'")


def _audit(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def _refusal(command: str) -> str:
    launch, findings = _audit(command)
    assert not launch["found"]
    assert [(f.code, f.severity, f.title) for f in findings] == [
        ("SD102", "error", "The engine refuses this launch command at startup")]
    (evidence,) = findings[0].evidence
    return evidence


def test_a_second_value_after_the_steps_is_refused() -> None:
    evidence = _refusal(SGLANG.replace("--speculative-num-steps 3", "--speculative-num-steps 3 4"))
    assert evidence == (
        "sglang: '4' after --speculative-num-steps 3 is no value of it: --speculative-num-steps takes one value, "
        "so argparse reads '4' as a positional argument, and the server takes no positional argument: it exits "
        "with 'unrecognized arguments: 4' and does not start; keep one value: --speculative-num-steps 3, or "
        "remove '4'")


def test_true_after_a_switch_in_a_deployment_args_list_is_refused() -> None:
    manifest = (
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: sglang\nspec:\n  template:\n    spec:\n"
        "      containers:\n      - name: sglang\n        image: lmsysorg/sglang:v0.5.6\n"
        "        command: [\"python3\", \"-m\", \"sglang.launch_server\"]\n        args:\n"
        "        - --model-path\n        - meta-llama/Llama-3.1-8B-Instruct\n        - --trust-remote-code\n"
        "        - \"true\"\n        - --speculative-algorithm\n        - EAGLE3\n"
        "        - --speculative-draft-model-path\n        - lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B\n")
    evidence = _refusal(manifest)
    assert evidence == (
        "sglang: 'true' after --trust-remote-code is no value of it: --trust-remote-code is a switch and takes no "
        "value, so argparse reads 'true' as a positional argument, and the server takes no positional argument: "
        "it exits with 'unrecognized arguments: true' and does not start; write --trust-remote-code alone to turn "
        "it on (leave it out to keep it off)")


def test_vllm_switch_with_a_value_is_refused_with_its_no_twin() -> None:
    evidence = _refusal(VLLM.replace("serve meta-llama/Llama-3.1-8B-Instruct",
                                     "serve meta-llama/Llama-3.1-8B-Instruct --enforce-eager False"))
    assert evidence == (
        "vllm: 'False' after --enforce-eager is no value of it: --enforce-eager is a switch and takes no value, "
        "so argparse reads 'False' as a positional argument, and the server takes one positional argument, the "
        "model, already given: it exits with 'unrecognized arguments: False' and does not start; write "
        "--enforce-eager alone to turn it on (to turn it off leave it out, or write --no-enforce-eager where the "
        "option is on by default)")


def test_vllm_model_flag_fills_the_positional_too() -> None:
    # FlexibleArgumentParser moves `--model M` to the front: the word after -tp's value is left over
    evidence = _refusal(VLLM.replace("serve meta-llama/Llama-3.1-8B-Instruct",
                                     "serve --model meta-llama/Llama-3.1-8B-Instruct -tp 2 2"))
    assert evidence.startswith("vllm: '2' after -tp 2 is no value of it: --tp takes one value")


@pytest.mark.parametrize("command", [
    SGLANG + " --cuda-graph-bs 1 2 4 8",                       # nargs='+'
    SGLANG + " --trust-remote-code --port 30000",
    VLLM + " --served-model-name llama eagle",                  # nargs='+' in vLLM
    VLLM + " --trust-remote-code",
    SGLANG.replace("python3 -m sglang.launch_server", "python3 -m dynamo.sglang") + " --trust-remote-code true",
    SGLANG + " --tp 8 ...",                                     # a doc's elision of the flags after
])
def test_words_argparse_takes_are_left_alone(command: str) -> None:
    launch, findings = _audit(command)
    assert launch["found"]
    assert not any(f.title == "The engine refuses this launch command at startup" for f in findings)
