"""The launch audit judges a vLLM command against the vLLM release the host runs: an option or a
--speculative-config key that release does not have yet (or no longer has) stops the server at
startup, it is not a silent no-op. Releases read from the PyPI sdists (vllm/engine/arg_utils.py,
vllm/config.py, vllm/config/speculative.py): --speculative-config from 0.8.2, the V0 flags gone in
0.8.3, method eagle3 from 0.8.5, -sc from 0.19.0, --spec-* from 0.22.0, dynamic K from 0.24.0."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# docs/features/speculative_decoding/dynamic_speculative_decoding.md (vLLM 0.24.0): the EAGLE-3 example
DYNAMIC = """vllm serve meta-llama/Llama-3.1-8B-Instruct \\
--speculative-config '{
"method": "eagle3",
"model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
"num_speculative_tokens": 3,
"num_speculative_tokens_per_batch_size": [
[1, 16, 5],
[17, 32, 4],
[33, 64, 3],
[65, 128, 1],
[129, 512, 0]
]
}'"""

# https://docs.vllm.ai/en/v0.7.1/features/spec_decode.html: the V0 flags
VLLM_DOCS_V071 = """python -m vllm.entrypoints.openai.api_server --host 0.0.0.0 --port 8000 --model facebook/opt-6.7b \\
    --seed 42 -tp 1 --speculative_model facebook/opt-125m --use-v2-block-manager \\
    --num_speculative_tokens 5"""

# vLLM PR #42476's shorthands on the docs' EAGLE-3 pair (docs/features/speculative_decoding/eagle.md)
SHORTHANDS = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --spec-method eagle3 "
              "--spec-model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --spec-tokens 3")


def audit(command: str, version: str | None) -> list:
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    engine = {"engine": {"name": "vllm", "version": version}} if version else {}
    return launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                                          host_facts={**engine, **facts}))


def test_dynamic_k_on_a_release_without_it_is_a_startup_error_not_a_schedule():
    # before: read as the 0.33.0 schedule (K 3 at batch size 1, "dynamic" and no finding)
    eff = effective_spec(parse_launch_command(DYNAMIC), engine_version="0.23.0")
    assert not eff.adaptive and not any(o.startswith("dynamic:") for o in eff.overrides)
    [problem] = eff.problems
    assert "vLLM 0.23.0 has no dynamic speculative decoding (added in 0.24.0)" in problem
    [sd102] = audit(DYNAMIC, "0.23.0")
    assert sd102.code == "SD102" and "server does not start" in " ".join(sd102.evidence)


@pytest.mark.parametrize("version", ["0.24.0", "0.33.0", None])
def test_dynamic_k_on_a_release_with_it_is_still_the_schedule(version):
    eff = effective_spec(parse_launch_command(DYNAMIC), engine_version=version)
    assert eff.adaptive and eff.num_steps == 3 and not eff.problems
    assert audit(DYNAMIC, version) == []


def test_v0_flags_are_refused_from_0_8_3_and_fine_before():
    assert effective_spec(parse_launch_command(VLLM_DOCS_V071), engine_version="0.7.1").problems == []
    assert effective_spec(parse_launch_command(VLLM_DOCS_V071), engine_version="0.8.2").problems == []
    problems = effective_spec(parse_launch_command(VLLM_DOCS_V071), engine_version="0.9.0").problems
    assert [p.split(":")[0] for p in problems] == ["--speculative-model", "--num-speculative-tokens"]
    assert "removed it in 0.8.3" in problems[0] and "unrecognized arguments" in problems[0]
    assert "SD102" in [f.code for f in audit(VLLM_DOCS_V071, "0.9.0")]


def test_speculative_config_and_eagle3_before_vllm_had_them():
    command = DYNAMIC.replace(',\n"num_speculative_tokens_per_batch_size": [\n[1, 16, 5],\n[17, 32, 4],\n'
                              '[33, 64, 3],\n[65, 128, 1],\n[129, 512, 0]\n]', "")
    assert effective_spec(parse_launch_command(command), engine_version="0.8.5").problems == []
    [eagle3] = effective_spec(parse_launch_command(command), engine_version="0.8.4").problems
    assert eagle3.startswith("method eagle3: vLLM 0.8.4 has no EAGLE-3 (added in 0.8.5)")
    problems = effective_spec(parse_launch_command(command), engine_version="0.8.1").problems
    assert problems[0].startswith("--speculative-config: vLLM 0.8.1 does not have it (added in 0.8.2")


def test_shorthand_flags_before_0_22_and_sc_before_0_19():
    assert effective_spec(parse_launch_command(SHORTHANDS), engine_version="0.22.0").problems == []
    problems = effective_spec(parse_launch_command(SHORTHANDS), engine_version="0.21.0").problems
    assert [p.split(":")[0] for p in problems] == ["--spec-method", "--spec-model", "--spec-tokens"]
    short = SHORTHANDS.split(" --spec-method")[0] + (
        " -sc '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
        "\"num_speculative_tokens\": 3}'")
    assert effective_spec(parse_launch_command(short), engine_version="0.19.0").problems == []
    [sc] = effective_spec(parse_launch_command(short), engine_version="0.18.0").problems
    assert sc.startswith("-sc: vLLM 0.18.0 does not have it (added in 0.19.0)")


def test_an_unreadable_version_is_judged_as_the_newest_release_and_a_dev_build_by_its_number():
    for version in ("main", "0.22.1.dev5+g1234abc"):
        eff = effective_spec(parse_launch_command(SHORTHANDS), engine_version=version)
        assert eff.problems == []


def test_dynamic_k_with_model_runner_v2_forced_on_stops_vllm_0_24_only():
    # 0.24.0's docs run the example with VLLM_USE_V2_MODEL_RUNNER=0: with 1, that release raises
    # "Model Runner V2 does not yet support: dynamic speculative decoding" (vllm/config/vllm.py)
    forced = "VLLM_USE_V2_MODEL_RUNNER=1 " + DYNAMIC
    [problem] = effective_spec(parse_launch_command(forced), engine_version="0.24.0").problems
    assert "VLLM_USE_V2_MODEL_RUNNER=1: vLLM 0.24.0 refuses to start" in problem
    assert [f.code for f in audit(forced, "0.24.0")] == ["SD102"]
    for version in ("0.25.0", "0.33.0", None):
        assert effective_spec(parse_launch_command(forced), engine_version=version).problems == []
    assert effective_spec(parse_launch_command("VLLM_USE_V2_MODEL_RUNNER=0 " + DYNAMIC),
                          engine_version="0.24.0").problems == []


def test_an_eagle3_head_named_in_v0_flags_on_a_release_before_eagle3():
    command = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-model yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
               "--num-speculative-tokens 3")
    [problem] = effective_spec(parse_launch_command(command), engine_version="0.8.2").problems
    assert problem.startswith("method eagle3: vLLM 0.8.2 has no EAGLE-3 (added in 0.8.5)")


# vLLM built from a checkout without tags reports setuptools_scm's 0.1.devN whatever its age:
# "0.1.dev1+gb22b798.d20241006.cu126" (vllm-project/vllm#9119), "0.1.dev7557+g977180c" (#20664)
@pytest.mark.parametrize("version", ["0.1.dev1+gb22b798.d20241006.cu126", "0.1.dev7557+g977180c"])
def test_a_vllm_built_from_an_untagged_checkout_is_judged_as_the_newest(version):
    from spec_debug.diagnose.checks.draft_config import check_norm_flags

    # before: read as vLLM 0.1, so --speculative-config "did not exist yet" ...
    eff = effective_spec(parse_launch_command(DYNAMIC), engine_version=version)
    assert eff.problems == [] and eff.adaptive
    # ... and a speculators draft's norm flags "were not run" (SD701 against vLLM 0.9.2 .. 0.10.0)
    draft = {"speculators_model_type": "eagle3", "norm_before_residual": True, "norm_before_fc": True,
             "transformer_layer_config": {"model_type": "llama"}}
    assert check_norm_flags("vllm", version, draft) == check_norm_flags("vllm", None, draft) == []
    # a real 0.1 release is still old
    assert effective_spec(parse_launch_command(DYNAMIC), engine_version="0.1.7").problems


def test_pre_releases_and_nightlies_are_not_refused_on_a_guess():
    # setuptools_scm names a nightly after 0.23.0 "0.23.1.devN": it may already hold what 0.24.0
    # released, so dynamic K is read as a schedule there, as on a 0.24.0 pre-release
    for version in ("0.23.1.dev3+g5a7c1f2", "0.24.0rc1", "0.24.0rc2.dev45+g1234abc"):
        eff = effective_spec(parse_launch_command(DYNAMIC), engine_version=version)
        assert eff.problems == [] and eff.adaptive, version
    # a nightly that cannot hold it yet, and a nightly before the V0 flags' removal
    assert effective_spec(parse_launch_command(DYNAMIC), engine_version="0.22.1.dev3+g1").problems
    assert effective_spec(parse_launch_command(VLLM_DOCS_V071), engine_version="0.8.3.dev5+g1").problems == []
    assert len(effective_spec(parse_launch_command(VLLM_DOCS_V071), engine_version="0.8.4.dev2+g1").problems) == 2


def test_a_speculators_draft_on_a_vllm_without_its_loader_does_not_start(tmp_path):
    pytest.importorskip("speculators")
    from tests.eagle3.speculators_world import save_verifier_and_draft

    save_verifier_and_draft(tmp_path)  # the draft's config.json as speculators 0.9.0 writes it
    draft = __import__("json").loads((tmp_path / "draft" / "config.json").read_text())
    command = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
               "'{\"method\": \"eagle3\", \"model\": \"/models/draft\", \"num_speculative_tokens\": 3}'")
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {
        "/models/draft": {"found": True, "path": "/models/draft", "config": draft}}})

    def check(version):
        engine = {"engine": {"name": "vllm", "version": version}}
        return launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                                              host_facts={**engine, **facts}))

    # before: no finding; vllm/transformers_utils/configs/speculators first ships in 0.10.1
    [sd102] = check("0.10.0")
    assert sd102.code == "SD102" and "vLLM 0.10.0 cannot load" in sd102.evidence[0]
    assert check("0.10.1") == [] and check("0.33.0") == []
