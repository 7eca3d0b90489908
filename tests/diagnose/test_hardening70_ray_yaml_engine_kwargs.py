"""A Ray Serve LLM YAML config's engine_kwargs are keywords of the replica's AsyncEngineArgs too.

The Python `LLMConfig(..., engine_kwargs=dict(max_model_lenn=4096))` is reported as the replica's
TypeError, but the same settings in a `serve run` config (`applications[].args.llm_configs[]`)
still read "argparse exits with 'unrecognized arguments'": the YAML path handed the audit a plain
`vllm serve` argv. Ray builds each LLMConfig of the YAML file and starts vLLM with
`AsyncEngineArgs(**engine_config.get_initialization_kwargs())` (ray python/ray/llm/_internal/serve/
deployments/llm/vllm/vllm_engine.py `_get_vllm_engine_config`), so no argparse reads these names."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_CONFIG = """applications:
- name: llm_app
  route_prefix: /
  import_path: ray.serve.llm:build_openai_app
  args:
    llm_configs:
    - model_loading_config:
        model_id: llama
        model_source: meta-llama/Llama-3.1-8B-Instruct
      engine_kwargs:
        {setting}
        speculative_config:
          method: eagle3
          model: yuhuili/EAGLE3-LLaMA3.1-Instruct-8B
          num_speculative_tokens: 3
"""


def _problems(setting: str) -> list[str]:
    cfg = parse_launch_command(_CONFIG.format(setting=setting))
    assert cfg.python_call == "LLMConfig"
    assert cfg.target_model == "meta-llama/Llama-3.1-8B-Instruct"
    return list(effective_spec(cfg).problems)


def test_an_unknown_engine_kwarg_of_a_yaml_config_is_a_type_error_of_the_replica() -> None:
    assert _problems("max_model_lenn: 4096") == [
        "max_model_lenn=: vLLM has no such setting (in the releases read: 0.18.0, 0.33.0, 0.34.0): the Ray Serve "
        "replica's AsyncEngineArgs(**engine_kwargs) raises TypeError (AsyncEngineArgs.__init__() got an unexpected "
        "keyword argument 'max_model_lenn') and the engine does not start, unless it runs a release that has it (one "
        "before 0.18.0, or after the newest read); did you mean max_model_len?"]


def test_an_engine_kwarg_that_starts_a_field_in_a_yaml_config_is_a_type_error() -> None:
    assert _problems("max_model: 4096") == [
        "max_model=: AsyncEngineArgs has no field by that name (a keyword argument is never read as an abbreviation, "
        "as argparse reads `--max-model`): the Ray Serve replica's AsyncEngineArgs(**engine_kwargs) raises TypeError "
        "(AsyncEngineArgs.__init__() got an unexpected keyword argument 'max_model') and the engine does not start; "
        "write the field's full name"]


def test_known_engine_kwargs_say_nothing_and_a_command_line_keeps_argparse() -> None:
    assert _problems("max_model_len: 4096") == []
    command = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-lenn 4096 --speculative-config "
               "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'")
    cfg = parse_launch_command(command)
    assert cfg.python_call is None
    assert "argparse exits with 'unrecognized arguments'" in effective_spec(cfg).problems[0]
