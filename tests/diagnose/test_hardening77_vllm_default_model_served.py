"""`vllm serve --served-model-name qwen Qwen/Qwen3-8B --speculative-config ...` on vLLM before 0.17.0.

--served-model-name is a list field (ModelConfig.served_model_name, nargs "+"): argparse gives it every
word up to the next flag, the model written right after the names too, so the positional model_tag
stays None and vllm/entrypoints/cli/serve.py leaves args.model at ModelConfig's default
(Qwen/Qwen3-0.6B since vllm-project/vllm#20335). The server starts and serves that model under the
name qwen (vllm-project/vllm issue #34326). 0.17.0 refuses the command instead (#34973, pinned by
test_hardening77_vllm_model_not_first).

Before: on a known release before 0.17.0 the audit said nothing and audited Qwen/Qwen3-8B as the
target. Now: SD102 (error) "The server runs vLLM's default model, not the one written", saying which
model runs and how to write the command; the model not eaten (after another flag, or the names glued
with `=`), a release from 0.17.0 or unknown, and releases before 0.7.3 are judged as before.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = ("--speculative-config '{\"method\": \"eagle3\", \"model\": \"AngelSlim/Qwen3-8B_eagle3\", "
        "\"num_speculative_tokens\": 3}'")
TITLE = "The server runs vLLM's default model, not the one written"
DEFAULT = ("vLLM's default model (ModelConfig.model: Qwen/Qwen3-0.6B; facebook/opt-125m on releases before "
           "vllm-project/vllm#20335, July 2025)")
HOW = "(vllm/entrypoints/cli/serve.py sets args.model from the positional model_tag only when one is given)"


def _audit(command: str, version: str | None = None):
    facts = launch_step.parse({"source": "server_cmdline var", "cmdline": command})
    engine = {"engine": {"name": "vllm", "version": version}} if version else {}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts={**facts, **engine})
    return launch_step.check(ctx)


@pytest.mark.parametrize("version", ["0.16.0", "0.10.1"])
def test_the_names_take_the_model_and_the_default_one_runs(version: str) -> None:
    findings = _audit(f"vllm serve --served-model-name qwen Qwen/Qwen3-8B {SPEC}", version)
    assert [(f.code, f.severity, f.title) for f in findings] == [("SD102", "error", TITLE)]
    assert findings[0].evidence == [
        "`vllm serve ... --served-model-name qwen Qwen/Qwen3-8B`: --served-model-name takes every word up to the "
        f"next flag (argparse nargs \"+\"), so vLLM {version} reads Qwen/Qwen3-8B as another served name, not the "
        f"model: no model is given, and the server starts with {DEFAULT}, not Qwen/Qwen3-8B, answering to the "
        f"names qwen, Qwen/Qwen3-8B {HOW}; the checks of the written target below are not of the model that "
        "runs; write the model first: `vllm serve Qwen/Qwen3-8B --served-model-name qwen ...`"]
    assert findings[0].facts["target_written"] == "Qwen/Qwen3-8B"


def test_after_another_flag_and_several_names() -> None:
    findings = _audit(f"vllm serve --port 8000 --served-model-name qwen qwen3 Qwen/Qwen3-8B {SPEC}", "0.16.0")
    assert [(f.code, f.title) for f in findings] == [("SD102", TITLE)]
    assert findings[0].evidence[0].startswith(
        "`vllm serve ... --served-model-name qwen qwen3 Qwen/Qwen3-8B`: ")
    assert "answering to the names qwen, qwen3, Qwen/Qwen3-8B " in findings[0].evidence[0]
    assert findings[0].evidence[0].endswith("write the model first: `vllm serve Qwen/Qwen3-8B --port 8000 ...`")


def test_no_model_at_all() -> None:
    findings = _audit(f"vllm serve --port 8000 --served-model-name qwen {SPEC}", "0.16.0")
    assert [(f.code, f.severity, f.title) for f in findings] == [("SD102", "error", TITLE)]
    assert findings[0].evidence == [
        f"`vllm serve --port ...` gives no model (only --served-model-name qwen): vLLM 0.16.0 starts with {DEFAULT} "
        f"{HOW}; write the model first: `vllm serve MODEL --port 8000 ...`"]


@pytest.mark.parametrize("command", [
    f"vllm serve --port 8000 Qwen/Qwen3-8B --served-model-name qwen {SPEC}",  # the model after another flag
    f"vllm serve --served-model-name=qwen Qwen/Qwen3-8B {SPEC}",  # a glued value is the only name
    f"vllm serve Qwen/Qwen3-8B --served-model-name qwen {SPEC}",  # the model first
])
def test_the_model_read_where_it_stands_is_fine(command: str) -> None:
    assert _audit(command, "0.16.0") == []


@pytest.mark.parametrize("version, title", [
    ("0.17.0", "The engine refuses this launch command at startup"),
    (None, "The engine refuses this launch command at startup on its newer releases"),
])
def test_newer_or_unknown_release_as_before(version: str | None, title: str) -> None:
    findings = _audit(f"vllm serve --served-model-name qwen Qwen/Qwen3-8B {SPEC}", version)
    assert [(f.code, f.title) for f in findings] == [("SD102", title)]


def test_a_release_older_than_read_is_not_judged() -> None:
    # (before 0.7.3 the serve parser was not read for it; those releases have their own refusals of
    # this --speculative-config, said as before)
    findings = _audit(f"vllm serve --served-model-name qwen Qwen/Qwen3-8B {SPEC}", "0.6.3")
    assert TITLE not in [f.title for f in findings]
