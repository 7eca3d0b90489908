"""A Helm chart template pasted as the launch (session 13).

A chart's deployment template (`- {{ .Values.model.name | quote }}`, `{{- if .Values.extraArgs }}`)
is not YAML until helm renders it: the audit fell back to reading it as shell words ('containers:',
'-', 'name:' ...) and said 'not an SGLang or vLLM server command'. A template whose actions sit
inside quoted strings is YAML, and its `--max-model-len "{{ .Values.maxModelLen }}"` values are
not the server's. Both now say it is a template to render first (helm template). An image tag
alone left to helm (`vllm/vllm-openai:{{ .Values.image.tag }}`) is still vLLM's image, of an
unknown release (was: no server command).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, image_release, image_rolling_tag, parse_launch_command

CHART = '''      containers:
        - name: vllm
          image: "vllm/vllm-openai:{{ .Values.image.tag }}"
          args:
            - --model
            - {{ .Values.model.name | quote }}
            - --speculative-config
            - '{"method": "eagle3", "model": "{{ .Values.draft }}", "num_speculative_tokens": 1}'
          {{- if .Values.extraArgs }}
          {{- toYaml .Values.extraArgs | nindent 12 }}
          {{- end }}
'''

QUOTED = '''containers:
  - name: vllm
    image: vllm/vllm-openai:v0.10.1.1
    args: ["--model", "{{ .Values.model }}", "--max-model-len", "{{ .Values.maxModelLen }}"]
'''

TAG_ONLY = '''containers:
  - name: vllm
    image: "vllm/vllm-openai:{{ .Values.image.tag }}"
    args: ["--model", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-config",
           "{\\"method\\": \\"eagle3\\", \\"model\\": \\"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\\", \\"num_speculative_tokens\\": 1}"]
'''


@pytest.mark.parametrize("text", [CHART, QUOTED])
def test_a_chart_template_says_to_render_it(text):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(text)
    assert "Helm chart template" in str(exc.value) and "helm template" in exc.value.hint


def test_an_image_tag_left_to_helm_is_still_vllms_image():
    cfg = parse_launch_command(TAG_ONLY)
    assert cfg.engine == "vllm" and cfg.algorithm == "EAGLE3" and cfg.num_steps == 1
    assert image_release(cfg.argv, "vllm") is None and image_rolling_tag(cfg.argv, "vllm") is None
