"""An SGLang/vLLM server started by an Argo Workflow.

Every Argo Workflow's spec names the template it starts with in `entrypoint:` and holds the
templates, whose `container:` runs the server (argoproj/argo-workflows docs/workflow-concepts.md).
The manifest reader took any mapping with an `entrypoint` key for a compose service, so the
spec was read as a container running `serve` and the real container was never reached: 'not an
SGLang or vLLM server command'. The server's flags often come from the workflow's parameters
(`{{inputs.parameters.steps}}`, `{{workflow.parameters.draft}}`), which Argo fills in from
`spec.arguments.parameters` and the templates' input defaults (docs/variables.md).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

WORKFLOW = """apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata:
  generateName: eagle3-serve-
spec:
  entrypoint: serve
  arguments:
    parameters:
    - name: steps
      value: "1"
    - name: draft
      value: /models/kimi-eagle3
  templates:
  - name: serve
    inputs:
      parameters:
      - name: steps
      - name: topk
        default: "1"
    container:
      image: lmsysorg/sglang:v0.5.6
      command: [python3, -m, sglang.launch_server]
      args:
      - --model-path
      - moonshotai/Kimi-K2.5
      - --tp
      - "8"
      - --speculative-algorithm
      - EAGLE3
      - --speculative-draft-model-path
      - "{{workflow.parameters.draft}}"
      - --speculative-num-steps
      - "{{inputs.parameters.steps}}"
      - --speculative-eagle-topk
      - "{{ inputs.parameters.topk }}"
      - --speculative-num-draft-tokens
      - "2"
"""


def test_the_workflows_container_is_read_with_its_parameters_filled_in() -> None:
    cfg = parse_launch_command(WORKFLOW)
    assert (cfg.engine, cfg.target_model, cfg.draft_model, cfg.num_steps, cfg.topk, cfg.tp) == (
        "sglang", "moonshotai/Kimi-K2.5", "/models/kimi-eagle3", 1, 1, 8)


def test_a_cron_workflow_nests_the_same_spec() -> None:
    body = WORKFLOW.split("spec:\n", 1)[1]
    cron = ("apiVersion: argoproj.io/v1alpha1\nkind: CronWorkflow\nmetadata:\n  name: nightly\nspec:\n"
            "  schedule: \"0 2 * * *\"\n  workflowSpec:\n" + "".join("  " + line + "\n" for line in body.splitlines()))
    cfg = parse_launch_command(cron)
    assert (cfg.draft_model, cfg.num_steps) == ("/models/kimi-eagle3", 1)


def test_a_parameter_the_file_gives_no_value_is_said_to_be_argos() -> None:
    unset = WORKFLOW.replace('    - name: steps\n      value: "1"\n', "")
    with pytest.raises(LaunchParseError) as raised:
        parse_launch_command(unset)
    assert "Argo parameter '{{inputs.parameters.steps}}'" in raised.value.message
    assert "kubectl get pod" in (raised.value.hint or "")


def test_a_script_template_runs_its_source() -> None:
    # argoproj/argo-workflows docs/walk-through/scripts-and-results.md: `source` is saved to a
    # file that `command` runs (was: the script's image and `bash` alone, no server)
    template = """apiVersion: argoproj.io/v1alpha1
kind: WorkflowTemplate
metadata:
  name: eagle3-serve
spec:
  entrypoint: serve
  arguments:
    parameters:
    - name: steps
      value: "1"
  templates:
  - name: serve
    inputs:
      parameters:
      - name: steps
    script:
      image: lmsysorg/sglang:v0.5.6
      command: [bash]
      source: |
        set -e
        python3 -m sglang.launch_server --model-path moonshotai/Kimi-K2.5 --tp 8 \\\\
          --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 \\\\
          --speculative-num-steps {{inputs.parameters.steps}} --speculative-eagle-topk 1 \\\\
          --speculative-num-draft-tokens 2
"""
    cfg = parse_launch_command(template)
    assert (cfg.engine, cfg.draft_model, cfg.num_steps, cfg.tp) == ("sglang", "/models/eagle3", 1, 8)


def test_a_draft_path_left_to_argo_is_not_a_draft_config_read() -> None:
    # was: "the draft config does not say how many steps it was trained for", as if it had been read
    from spec_debug.diagnose.steps import launch_step
    from spec_debug.probes.registry import ProbeContext

    unset = WORKFLOW.replace("    - name: draft\n      value: /models/kimi-eagle3\n", "")
    facts = launch_step.parse({"source": "var", "cmdline": unset, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=dict(facts))
    [sd101] = [f for f in launch_step.check(ctx) if f.code == "SD101"]
    text = " ".join(sd101.evidence)
    assert "the draft path is {{workflow.parameters.draft}}" in text and "Argo parameter" in text
    assert "the draft config does not say" not in text
