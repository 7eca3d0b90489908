"""Review of the KServe runtime reader (session 15, commit 843d206): a runtime inside a Helm chart.

The KServe controller fills only the InferenceService's metadata in a ServingRuntime's args
(`{{.Name}}`, `{{.Namespace}}`, `{{.Labels.x}}`, `{{.Annotations.x}}`). A runtime shipped in a Helm
chart (`{{ .Values.speculativeConfig | toJson }}`) was read as a manifest as it stands once any
ServingRuntime was in the text: `--speculative-config is not valid JSON ... quote it for the
shell`, where the chart's template message was right.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

RUNTIME = """apiVersion: serving.kserve.io/v1alpha1
kind: ServingRuntime
metadata:
  name: vllm-runtime
spec:
  containers:
    - name: kserve-container
      image: vllm/vllm-openai:v0.9.1
      args:
        - "--port=8080"
        - "--model=/mnt/models"
        - "--served-model-name={{.Name}}"
        - {spec}
"""

SPEC = """'--speculative-config={"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'"""


def test_a_runtime_with_helm_values_is_a_chart_template():
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(RUNTIME.format(spec='"--speculative-config={{ .Values.speculativeConfig | toJson }}"'))
    assert "Helm chart template" in exc.value.message


@pytest.mark.parametrize("extra", ["", '\n        - "--served-model-name={{ .Labels.app }}"',
                                   '\n        - "--download-dir=/cache/{{.Namespace}}"'])
def test_kserves_own_placeholders_stay_a_manifest(extra):
    cfg = parse_launch_command(RUNTIME.format(spec=SPEC) + extra)
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" and cfg.num_steps == 3
