"""Review of the Ray Serve LLM reader (session 15, commit ea6dad0): llm_configs given as file paths.

A Ray Serve LLM app may list each LLMConfig by the path of its YAML file (LLMServingArgs.llm_configs:
"A list of LLMConfigs, or paths to LLMConfigs, to run."), as the Ray docs' `serve run` configs do.
Such a config was 'not an SGLang or vLLM server command': it now says the engine's settings are
in the named files, which this text lacks.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command

SERVE_CONFIG = """applications:
- name: llm_app
  route_prefix: /
  import_path: ray.serve.llm:build_openai_app
  args:
    llm_configs:
      - models/llama-3.1-8b-eagle3.yaml
"""

RAYSERVICE = """apiVersion: ray.io/v1
kind: RayService
metadata:
  name: llama
spec:
  serveConfigV2: |
    applications:
    - name: llm_app
      import_path: ray.serve.llm:build_openai_app
      args:
        llm_configs:
          - /home/ray/configs/llama.yaml
"""

LLM_CONFIG_FILE = """model_loading_config:
  model_id: llama
  model_source: meta-llama/Llama-3.1-8B-Instruct
engine_kwargs:
  speculative_config:
    method: eagle3
    model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
    num_speculative_tokens: 3
"""


@pytest.mark.parametrize("text, path", [(SERVE_CONFIG, "models/llama-3.1-8b-eagle3.yaml"),
                                        (RAYSERVICE, "/home/ray/configs/llama.yaml")])
def test_llm_configs_named_by_path_say_the_files_are_missing(text, path):
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(text)
    assert path in exc.value.message and "engine_kwargs" in exc.value.message and "\n" not in exc.value.message
    assert "paste those LLMConfig files" in exc.value.hint


def test_the_named_file_pasted_below_is_read():
    cfg = parse_launch_command(SERVE_CONFIG + "---\n" + LLM_CONFIG_FILE)
    assert cfg.draft_model == "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B" and cfg.num_steps == 3


def test_another_apps_config_is_no_ray_llm_app():
    text = SERVE_CONFIG.replace("ray.serve.llm:build_openai_app", "fruit:deployment_graph").replace(
        "llm_configs:\n      - models/llama-3.1-8b-eagle3.yaml", "model: resnet50")
    with pytest.raises(LaunchParseError) as exc:
        parse_launch_command(text)
    assert "not an SGLang or vLLM server command" in exc.value.message
