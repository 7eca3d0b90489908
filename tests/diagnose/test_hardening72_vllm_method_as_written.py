"""A vLLM method a release lacks is named as the command wrote it.

`vllm serve M --spec-method dspark ...` (0.22.0's flags) or a dotted `-sc.method medusa` refused on
a release that lacks the method was said as `--speculative-config "method": "dspark"`, JSON the
command never wrote; the line now starts with the flag the user typed.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _sd102(flags: str, version: str) -> list[str]:
    command = f"vllm serve Qwen/Qwen3-8B {flags}"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host_facts = dict(facts, engine={"name": "vllm", "version": version})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host_facts)
    return [line for f in launch_step.check(ctx) if f.code == "SD102" for line in f.evidence]


@pytest.mark.parametrize(("flags", "said"), [
    ("--spec-method dspark --spec-model z-lab/draft --spec-tokens 8", "--spec-method dspark"),
    ("-sc.method dspark -sc.model z-lab/draft -sc.num_speculative_tokens 8", "-sc.method dspark"),
    ("--speculative-config.method dspark --speculative-config.model z-lab/draft "
     "--speculative-config.num_speculative_tokens 8", "--speculative-config.method dspark"),
    ("--speculative-config '{\"method\": \"dspark\", \"model\": \"z-lab/draft\", \"num_speculative_tokens\": 8}'",
     '--speculative-config "method": "dspark"'),
])
def test_a_method_the_release_lacks_is_said_as_written(flags: str, said: str) -> None:
    [line] = [line for line in _sd102(flags, "0.24.0") if "has no such method" in line]
    assert line.startswith(f"{said}: vLLM 0.24.0 has no such method (added in 0.25.0): ")


def test_a_removed_method_is_said_as_written() -> None:
    [line] = _sd102("--spec-method medusa --spec-model abhigoyal/vllm-medusa-llama-68m-random --spec-tokens 3",
                    "0.33.0")
    assert line.startswith("--spec-method medusa: vLLM 0.33.0 removed this method, and 0.33.0 refuses it at startup")
