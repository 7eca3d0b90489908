"""A second word after a vLLM dotted key: `--speculative-config.num_speculative_tokens 3 4`.

vLLM's FlexibleArgumentParser takes the one word after `--speculative-config.KEY` as the key's value
and folds it into the JSON of --speculative-config (vllm/utils/argparse_utils.py `parse_args`:
`value_str = processed_args[i + 1]`); the word after that is left to argparse, which reads it as a
positional argument, and `vllm serve` has only one, the model, already given: "unrecognized
arguments: 4", the server does not start. Before: the word was dropped and the command audited as if
it ran with K = 3. Now: SD102 "The engine refuses this launch command at startup".
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _audit(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


def test_a_second_word_after_a_dotted_key_is_refused() -> None:
    # vLLM's FlexibleArgumentParser takes the one word after `--speculative-config.KEY` as its value
    # (vllm/utils/argparse_utils.py: `value_str = processed_args[i + 1]`); the next is left over
    command = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config.method eagle3 "
               "--speculative-config.model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
               "--speculative-config.num_speculative_tokens 3 4")
    launch, findings = _audit(command)
    assert not launch["found"]
    assert findings[0].evidence == [
        "vllm: '4' after --speculative-config.num_speculative_tokens 3 is no value of it: "
        "--speculative-config.num_speculative_tokens takes one value, so argparse reads '4' as a positional "
        "argument, and the server takes one positional argument, the model, already given: it exits with "
        "'unrecognized arguments: 4' and does not start; keep one value: "
        "--speculative-config.num_speculative_tokens 3, or remove '4'"]
    launch, findings = _audit(command[:-2])
    assert launch["found"] and launch["num_steps"] == 3 and findings == []
