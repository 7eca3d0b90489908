"""A value glued to a switch with `=`: `--trust-remote-code=true`, `--enforce-eager=True`.

Written so in a Deployment's `args:` or a compose file, as other tools' flags take it. Neither
engine's switches take a value (SGLang's bool options are store_true; vLLM's BooleanOptionalAction
or store_true), and argparse refuses the glued value as it reads the option (CPython
Lib/argparse.py `consume_optional`: "argument --trust-remote-code: ignored explicit argument
'true'"), so the server exits before it starts. Before: the value was dropped and the command
audited as if it ran. Now: SGLang/vLLM SD102 "The engine refuses this launch command at startup"
quoting argparse's message, with how to write the switch. A valued option whose name looks like a
switch (`--log-level=warning`) is left alone.
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


def test_sglang_switch_with_a_glued_true_is_refused() -> None:
    launch, findings = _audit(SGLANG + " --trust-remote-code=true")
    assert not launch["found"]
    assert [(f.code, f.severity, f.title) for f in findings] == [
        ("SD102", "error", "The engine refuses this launch command at startup")]
    assert findings[0].evidence == [
        "sglang: --trust-remote-code=true: --trust-remote-code is a switch and takes no value, so argparse exits "
        "with \"argument --trust-remote-code: ignored explicit argument 'true'\" and the server does not start; "
        "write --trust-remote-code alone to turn it on (leave it out to keep it off)"]


def test_vllm_switch_with_a_glued_value_is_refused_with_the_model_given_as_a_flag() -> None:
    command = VLLM.replace("serve meta-llama/Llama-3.1-8B-Instruct", "serve --enable-prefix-caching=False "
                                                                        "--model meta-llama/Llama-3.1-8B-Instruct")
    launch, findings = _audit(command)
    assert not launch["found"]
    assert findings[0].evidence == [
        "vllm: --enable-prefix-caching=False: --enable-prefix-caching is a switch and takes no value, so argparse "
        "exits with \"argument --enable-prefix-caching: ignored explicit argument 'False'\" and the server does not "
        "start; write --enable-prefix-caching alone to turn it on (to turn it off leave it out, or write "
        "--no-enable-prefix-caching where the option is on by default)"]


@pytest.mark.parametrize("command", [
    SGLANG + " --log-level=warning --trust-remote-code",
    VLLM + " --enforce-eager --disable-log-stats",
])
def test_switches_written_alone_and_valued_options_are_left_alone(command: str) -> None:
    launch, findings = _audit(command)
    assert launch["found"]
    assert findings == []

