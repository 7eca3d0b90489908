"""`vllm serve --model X ...` and `vllm serve A ... --model B`, judged by the vLLM release.

From the PyPI sdists: 0.7.3 and 0.8.0 refuse --model in `vllm serve`'s cmd, 0.8.5 to 0.11.0 in
FlexibleArgumentParser.parse_args, a ValueError "With `vllm serve`, you should provide the model as a
positional argument ... instead of via the `--model` option." (issues #13150, PR #16691); 0.11.1
(vllm/utils/argparse_utils.py) moves the value of --model to the front as the positional model, so a
model written first as well is then a second positional ("unrecognized arguments"). The
vllm/vllm-openai image runs the api_server module up to 0.11.0, where --model is the way.

Before: --model was read as the model on every release, and `vllm serve A --model B` as A. Now:
SD102 "The engine refuses this launch command at startup" (error) where the release refuses it.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
SPEC = ("--speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
        "\"num_speculative_tokens\": 3}'")
RAISES = ("raises ValueError (\"With `vllm serve`, you should provide the model as a positional argument ... instead "
          "of via the `--model` option.\") and the server does not start (FlexibleArgumentParser.parse_args, "
          "vllm/utils; 0.11.1 and later move the value of --model to the front)")
SECOND = (f"FlexibleArgumentParser moves the value of --model ({TARGET}) to the front as the model, so {TARGET} is a "
          f"second positional argument: argparse exits with 'unrecognized arguments: {TARGET}' and the server does "
          "not start (vllm/utils/argparse_utils.py)")
FIX = f"write the model once, first: `vllm serve {TARGET} ...` without --model"


def _audit(command: str, version: str | None):
    facts = launch_step.parse({"source": "var", "cmdline": command})
    engine = {"engine": {"name": "vllm", "version": version}} if version else {}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts={**facts, **engine})
    return launch_step.check(ctx)


@pytest.mark.parametrize("version", ["0.8.5", "0.10.1", "0.11.0"])
def test_model_option_on_a_release_that_refuses_it(version: str) -> None:
    findings = _audit(f"vllm serve --model {TARGET} --tensor-parallel-size 1 {SPEC}", version)
    assert [(f.code, f.severity, f.title) for f in findings] == [
        ("SD102", "error", "The engine refuses this launch command at startup")]
    assert findings[0].evidence == [f"`vllm serve ... --model {TARGET}`: vLLM {version} {RAISES}; {FIX}"]


@pytest.mark.parametrize("version", ["0.11.1", "0.18.0", None])
def test_model_option_is_moved_first_from_0_11_1(version: str | None) -> None:
    assert _audit(f"vllm serve --model {TARGET} --tensor-parallel-size 1 {SPEC}", version) == []


@pytest.mark.parametrize("version", ["0.10.1", "0.11.0"])
def test_the_image_ran_the_api_server_then(version: str) -> None:
    # docker/Dockerfile ENTRYPOINT ["python3", "-m", "vllm.entrypoints.openai.api_server"] up to 0.11.0
    assert _audit(f"docker run --gpus all vllm/vllm-openai:v{version} --model {TARGET} {SPEC}", None) == []
    assert _audit(f"python3 -m vllm.entrypoints.openai.api_server --model {TARGET} {SPEC}", version) == []


def test_the_model_written_twice() -> None:
    command = f"vllm serve {TARGET} --model {TARGET} {SPEC}"
    said = f"`vllm serve {TARGET} ... --model {TARGET}`"
    findings = _audit(command, "0.18.0")
    assert [(f.code, f.severity) for f in findings] == [("SD102", "error")]
    assert findings[0].evidence == [f"{said}: vLLM 0.18.0's {SECOND}; {FIX}"]
    assert _audit(command, "0.10.1")[0].evidence == [f"{said}: vLLM 0.10.1 {RAISES}; {FIX}"]
    # the release unknown: every release read refuses it, each in its own way
    findings = _audit(command, None)
    assert [(f.code, f.severity) for f in findings] == [("SD102", "error")]
    assert findings[0].evidence == [f"{said}: from vLLM 0.11.1 on, {SECOND}; before it vLLM {RAISES}; {FIX}"]


def test_glued_model_option_before_0_11_1_is_left_aside() -> None:
    # 0.8.5 .. 0.11.0 match the word `--model` alone: `--model=X` reaches argparse, and the positional wins
    assert _audit(f"vllm serve {TARGET} --model={TARGET} {SPEC}", "0.10.1") == []
