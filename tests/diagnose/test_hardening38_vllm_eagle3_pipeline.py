"""An EAGLE-3 drafter served by vLLM with pipeline parallelism (`-pp N`, N > 1) got no finding.
vLLM runs the drafter on the last pipeline stage, and up to 0.29.0 the aux hidden states of the
target layers on the earlier stages never reach it: the V1 model runner sets the aux layer ids on
the last stage alone, each model's forward there returns IntermediateTensors({hidden_states,
residual}) only, and the last stage matches the ids against a stage-local index
(`enumerate(islice(...))` restarts at 0: vllm-project/vllm#36151; #45985 describes the lost
states). The V2 model runner refused the combination until vllm-project/vllm#50514 (first in
0.30.0, where V2 is the default) carried them over; VLLM_USE_V2_MODEL_RUNNER=0 keeps the V1
runner, which still does not. The drafter's fc then gets fewer aux states than it takes (the
server fails at startup or on the first request) or the wrong layers (acceptance collapses)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from tests.session.incident_story import _Writer

from spec_debug.diagnose.steps import launch_step
from spec_debug.explain import explain_playbook
from spec_debug.playbook.loader import load_playbook
from spec_debug.probes.registry import ProbeContext
from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook

PP_SOURCES = ["https://github.com/vllm-project/vllm/issues/36151",
              "https://github.com/vllm-project/vllm/pull/45985",
              "https://github.com/vllm-project/vllm/pull/50514"]

# vLLM's EAGLE-3 example for Llama-3.1-70B (yuhuili's draft), split over two nodes of 4 GPUs the
# way the pipeline-parallel threads run it (vllm-project/vllm#50514: TP=2 x PP=2 with a Llama-3.3-70B target)
SPEC = ("--speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-70B\", "
        "\"num_speculative_tokens\": 3}'")
PP2 = f"vllm serve meta-llama/Llama-3.1-70B-Instruct -tp 4 -pp 2 {SPEC}"


def _findings(command: str, version: str | None, draft_config: dict | None = None):
    models = {"yuhuili/EAGLE3-LLaMA3.1-Instruct-70B": {"path": "/models/draft", "config": draft_config}} \
        if draft_config else {}
    launch = launch_step.parse({"source": "var", "cmdline": command, "models": models})
    engine = {"name": "vllm", "version": version} if version else {}
    ctx = ProbeContext(step_id="launch_flags", host="gpu01", args={}, facts=launch,
                       host_facts={**launch, "engine": engine})
    return launch_step.check(ctx)


def _pp_findings(command: str, version: str | None, draft_config: dict | None = None):
    return [f for f in _findings(command, version, draft_config) if f.code == "SD201"]


def test_eagle3_over_two_pipeline_stages_on_a_release_before_the_fix_is_an_sd201_error():
    [finding] = _pp_findings(PP2, "0.29.0")
    assert finding.severity == "error"
    assert finding.title == "Aux hidden states of earlier pipeline stages never reach the EAGLE-3 drafter"
    assert finding.evidence[0] == ("-pp 2 with method eagle3 on vLLM 0.29.0: the target runs in 2 pipeline stages "
                                   "and the drafter on the last one")
    assert "never reach the drafter" in finding.evidence[1]
    assert "enumerate(islice(...)) restarts at 0" in finding.evidence[1]
    assert finding.evidence[2].startswith("what happens: the drafter gets fewer aux states than its fc takes")
    assert "shape error in combine_hidden_states" in finding.evidence[2]
    assert "acceptance collapses" in finding.evidence[2]
    assert finding.evidence[3] == "sources: " + ", ".join(PP_SOURCES)
    assert "vLLM 0.30.0 or later on its default V2 model runner" in finding.remediation
    assert "-tp 8 in place of -tp 4 -pp 2" in finding.remediation
    assert "https://github.com/vllm-project/vllm/pull/50514" in finding.references
    # the launch step records it, so the later steps read low acceptance as explained by it
    launch = launch_step.parse({"source": "var", "cmdline": PP2, "models": {}})
    assert launch["launch"]["pp"] == 2


def test_the_long_flag_an_engine_call_and_an_image_tag_are_read_too():
    long = PP2.replace("-pp 2", "--pipeline-parallel-size=4")
    [finding] = _pp_findings(long, "0.28.0")
    assert finding.evidence[0].startswith("--pipeline-parallel-size 4 with method eagle3 on vLLM 0.28.0")
    code = ("from vllm import LLM\n"
            "llm = LLM(model=\"meta-llama/Llama-3.1-70B-Instruct\", tensor_parallel_size=4,\n"
            "          pipeline_parallel_size=2,\n"
            "          speculative_config={\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-70B\",\n"
            "                              \"num_speculative_tokens\": 3})\n")
    assert [f.severity for f in _pp_findings(code, "0.26.0")] == ["error"]
    image = ("docker run --gpus all vllm/vllm-openai:v0.29.0 --model meta-llama/Llama-3.1-70B-Instruct "
             f"-pp 2 {SPEC}")
    [finding] = _pp_findings(image, None)
    assert finding.severity == "error" and "on vLLM 0.29.0" in finding.evidence[0]


def test_one_pipeline_stage_is_no_finding():
    assert _pp_findings(PP2.replace("-pp 2", "-pp 1"), "0.29.0") == []
    assert _pp_findings(PP2.replace(" -pp 2", ""), "0.29.0") == []
    assert _pp_findings(PP2.replace(" -pp 2", ""), None) == []


def test_a_release_with_the_fix_is_no_finding_unless_the_v1_runner_is_forced():
    assert _pp_findings(PP2, "0.30.0") == []
    assert _pp_findings(PP2, "0.34.0") == []
    [finding] = _pp_findings("VLLM_USE_V2_MODEL_RUNNER=0 " + PP2, "0.30.0")
    assert finding.severity == "error"
    assert finding.evidence[1].startswith("VLLM_USE_V2_MODEL_RUNNER=0 keeps the V1 model runner, which does not "
                                          "carry them: from 0.30.0 vLLM carries them on the V2 runner only")


def test_the_v2_runner_before_the_fix_refuses_at_startup_which_is_no_silent_fault():
    # 0.17.0 .. 0.29.0 vllm/v1/worker/gpu/model_runner.py: "EAGLE3 with pipeline parallel is not supported"
    assert _pp_findings("VLLM_USE_V2_MODEL_RUNNER=1 " + PP2, "0.29.0") == []


def test_an_unknown_release_says_so_and_what_to_check():
    [finding] = _pp_findings(PP2, None)
    assert finding.severity == "warning"
    assert finding.evidence[0].endswith("on vLLM (release unknown): the target runs in 2 pipeline stages and the "
                                        "drafter on the last one")
    assert finding.evidence[1].startswith("the vLLM release is unknown here (`pip show vllm` where the server runs, "
                                          "or its image tag, says it): before 0.30.0")
    assert "0.30.0 and later carry them on the V2 model runner" in finding.evidence[1]


def test_a_draft_that_takes_no_aux_states_loses_none():
    draft = {"architectures": ["LlamaForCausalLMEagle3"], "eagle_config": {"use_aux_hidden_state": False}}
    assert _pp_findings(PP2, "0.29.0", draft) == []
    assert len(_pp_findings(PP2, "0.29.0", {"architectures": ["LlamaForCausalLMEagle3"]})) == 1


def test_other_methods_and_engines_are_not_judged_by_it():
    eagle = PP2.replace('"eagle3"', '"eagle"').replace("EAGLE3-LLaMA3.1", "EAGLE-LLaMA3.1")
    assert _pp_findings(eagle, "0.29.0") == []


def test_explain_lists_sd201_for_the_launch_step():
    walkthrough = explain_playbook(load_playbook("perf_regression"))
    [step] = [s for s in walkthrough["steps"] if s.id == "launch_flags"]
    assert "SD201" in [c.code for c in step.codes]


def test_a_sessions_concat_sd201_still_distills_no_launch_audit(tmp_path: Path):
    # SD201 is a launch_flags code now; a session's SD201 (a concatenation order it read) is no
    # launch finding, so distill must not add the launch audit step for it
    gpu, site = "10.1.230.174", "~/ml-env/lib/python3.12/site-packages"
    session = "7e1a0000-0000-4000-8000-00000000aa38"
    m = _Writer(session, None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    m.prompt("EAGLE-3 on Kimi-K2.5 gives 54.8 tok/s against a 90 tok/s baseline.")
    m.say("The speculators data generation built the draft input as cat([embed_output, layer3, layer31]).")
    # vllm/model_executor/models/deepseek_v2.py (DeepseekV2Model.forward): the residual all-gather
    m.bash(f"ssh root@{gpu} \"grep -n 'torch.cat' {site}/vllm/model_executor/models/deepseek_v2.py\"",
           "        combined_states = torch.cat([hidden_states, residual], dim=-1)")
    m.bash(f"ssh root@{gpu} \"grep -n 'capture' /sgl/python/sglang/srt/models/deepseek_v2.py\"",
           "1873:        # eagle3: hidden = torch.cat([layer3, layer31, layer59], dim=-1)")
    path = tmp_path / f"{session}.jsonl"
    path.write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(path)
    assert "SD201" in [f.code for f in analysis.findings]
    playbook = distill_playbook(analysis)
    assert "launch_flags" not in [step.get("id") for step in playbook["steps"]]
