"""`vllm serve --port 8000 Qwen/Qwen3-8B --served-model-name qwen ...`: the model not first.

Since vllm-project/vllm PR #34973 (first in 0.17.0; the 0.16.0 sdist lacks it) FlexibleArgumentParser
raises ValueError("`model` should be provided as the first positional argument when using `vllm
serve`. ...") when the first word after `serve` is a flag (after a `--model X` is moved there), a
--served-model-name is written and no --config is (vllm/utils/argparse_utils.py `parse_args`). Up to
0.16 argparse reads the model wherever it stands, except that --served-model-name (nargs "+") takes
the model too when it comes right after the names (issue #34326: the default model is served).

Before: the audit read the model from wherever it stood and said nothing; a 0.17.0+ server does
not start. Now: SD102 "The engine refuses this launch command at startup" (error) on a release
that has the check, nothing on one before it, and a warning titled for the newer releases, saying
what the older ones do, when the release is unknown.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SPEC = ("--speculative-config '{\"method\": \"eagle3\", \"model\": \"AngelSlim/Qwen3-8B_eagle3\", "
        "\"num_speculative_tokens\": 3}'")
RAISES = ("FlexibleArgumentParser raises ValueError (\"`model` should be provided as the first positional argument "
          "when using `vllm serve`. i.e. `vllm serve <model> --<arg> <value>`.\") before argparse reads the flags, "
          "and the server does not start (vllm/utils/argparse_utils.py, vllm-project/vllm#34973)")
UNKNOWN = ("; the vLLM release is unknown here (`pip show vllm` where the server runs, or its image tag, says which "
           "of these it does)")


def _audit(command: str, version: str | None = None, config_file: dict | None = None):
    host = {"source": "var", "cmdline": command, **({"config_file": config_file} if config_file else {})}
    facts = launch_step.parse(host)
    engine = {"engine": {"name": "vllm", "version": version}} if version else {}
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts={**facts, **engine})
    return facts["launch"], launch_step.check(ctx)


@pytest.mark.parametrize("version", ["0.17.0", "0.18.1", "0.34.0"])
def test_a_release_with_the_check_refuses_it(version: str) -> None:
    _, findings = _audit(f"vllm serve --port 8000 Qwen/Qwen3-8B --served-model-name qwen {SPEC}", version)
    assert [(f.code, f.severity, f.title) for f in findings] == [
        ("SD102", "error", "The engine refuses this launch command at startup")]
    assert findings[0].evidence[0] == (
        "`vllm serve --port ...` (--served-model-name written, no --model): the model (Qwen/Qwen3-8B) is not the "
        f"first word after `serve`: vLLM {version}'s {RAISES}; write the model first: "
        "`vllm serve Qwen/Qwen3-8B --port 8000 ...`")


def test_the_image_runs_vllm_serve() -> None:
    # vllm/vllm-openai's ENTRYPOINT is ["vllm", "serve"] (docker/Dockerfile): its tag is the release
    _, findings = _audit("docker run --gpus all vllm/vllm-openai:v0.18.0 --port 8000 Qwen/Qwen3-8B "
                         f"--served-model-name qwen {SPEC}")
    assert [(f.code, f.severity) for f in findings] == [("SD102", "error")]
    assert "vLLM 0.18.0's FlexibleArgumentParser raises ValueError" in findings[0].evidence[0]


@pytest.mark.parametrize("version", ["0.16.0", "0.11.0"])
def test_a_release_before_it_starts(version: str) -> None:
    launch, findings = _audit(f"vllm serve --port 8000 Qwen/Qwen3-8B --served-model-name qwen {SPEC}", version)
    assert (launch["target_model"], findings) == ("Qwen/Qwen3-8B", [])


def test_the_release_unknown_is_a_warning_for_the_newer_releases() -> None:
    _, findings = _audit(f"vllm serve --port 8000 Qwen/Qwen3-8B --served-model-name qwen {SPEC}")
    assert [(f.code, f.severity, f.title) for f in findings] == [
        ("SD102", "warning", "The engine refuses this launch command at startup on its newer releases")]
    assert findings[0].evidence == [
        "`vllm serve --port ...` (--served-model-name written, no --model): the model (Qwen/Qwen3-8B) is not the first "
        f"word after `serve`: vLLM 0.17.0 and later: {RAISES}; before 0.17.0 argparse reads the model wherever it "
        f"stands; write the model first: `vllm serve Qwen/Qwen3-8B --port 8000 ...`{UNKNOWN}"]


def test_the_names_take_the_model_on_the_older_releases() -> None:
    # issue #34326: `vllm serve --served-model-name ASR Qwen/Qwen3-ASR-1.7B`
    _, findings = _audit(f"vllm serve --served-model-name qwen Qwen/Qwen3-8B {SPEC}")
    assert [(f.code, f.severity) for f in findings] == [("SD102", "warning")]
    assert ("before 0.17.0 argparse reads Qwen/Qwen3-8B as another name of --served-model-name (it takes every word "
            "up to the next flag), so no model is given and the server runs vLLM's default model (ModelConfig.model, "
            "Qwen/Qwen3-0.6B in 0.16), not Qwen/Qwen3-8B; write the model first: "
            "`vllm serve Qwen/Qwen3-8B --served-model-name qwen ...`") in findings[0].evidence[0]


@pytest.mark.parametrize("command", [
    f"vllm serve Qwen/Qwen3-8B --port 8000 --served-model-name qwen {SPEC}",           # the model first
    f"vllm serve --port 8000 --model Qwen/Qwen3-8B --served-model-name qwen {SPEC}",   # --model is moved first
    f"vllm serve --port 8000 --model=Qwen/Qwen3-8B --served_model_name qwen {SPEC}",
    f"vllm serve --port 8000 Qwen/Qwen3-8B {SPEC}",                                     # no --served-model-name
    # the api_server module's argv has no `serve`: the check is not run
    f"python3 -m vllm.entrypoints.openai.api_server --port 8000 Qwen/Qwen3-8B --served-model-name qwen {SPEC}",
    # a shell expansion where flags go may hold --model or --config
    f"vllm serve --port 8000 $VLLM_ARGS --served-model-name qwen {SPEC}",
])
def test_commands_it_starts(command: str) -> None:
    _, findings = _audit(command, "0.18.0")
    assert findings == []


def test_a_config_file_skips_the_check() -> None:
    # `--config` written: vLLM leaves the model to the file, read or not
    _, findings = _audit(f"vllm serve --port 8000 --served-model-name qwen --config /srv/vllm.yaml {SPEC}", "0.18.0")
    assert [f.code for f in findings] == ["SD004"]
    _, findings = _audit(f"vllm serve --port 8000 --served-model-name qwen --config /srv/vllm.yaml {SPEC}", "0.18.0",
                         config_file={"path": "/srv/vllm.yaml", "text": "model: Qwen/Qwen3-8B\n"})
    assert findings == []
