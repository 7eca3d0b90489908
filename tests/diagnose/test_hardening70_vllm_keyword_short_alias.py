"""vLLM's short command-line aliases (`-tp`, `-pp`, `-sc`) are no keywords of LLM(...).

`LLM(model=..., tp=2)` was refused with the command line's wording ("--tp is not vLLM's -tp (one
dash) ... argparse exits with 'unrecognized arguments'", hint "write -tp (one dash)"): the call's
keywords went through `_refuse_double_dashed_short`, which judges a `--tp` word of `vllm serve`.
No argparse reads a keyword argument: LLM(model, ..., **kwargs) builds EngineArgs(**kwargs)
(vllm/entrypoints/llm.py), and EngineArgs has the field `tensor_parallel_size`; `-tp` is only an
option string vllm/engine/arg_utils.py add_cli_args gives that field. So Python raises TypeError
and the fix is `tensor_parallel_size=`. `pp=2` was told "vLLM has no such setting ... unless it
runs a release that has it" (no release has the field), `sc=` twice. The command line is unchanged."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import LaunchParseError, effective_spec, parse_launch_command

_SC = "{'method': 'eagle3', 'model': '/models/eagle3', 'num_speculative_tokens': 3}"


def _said(keyword: str, field: str) -> str:
    return (f"{keyword}=: EngineArgs has no field by that name (`-{keyword}` is only the command line's other "
            f"name of --{field.replace('_', '-')}): LLM(...) raises TypeError (EngineArgs.__init__() got an "
            f"unexpected keyword argument '{keyword}') and the engine does not start; write {field}=")


@pytest.mark.parametrize(("keyword", "field"), [("tp", "tensor_parallel_size"), ("pp", "pipeline_parallel_size")])
def test_llm_short_alias_keyword_is_a_type_error_naming_the_field(keyword: str, field: str) -> None:
    text = f'from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", {keyword}=2, speculative_config={_SC})'
    cfg = parse_launch_command(text)
    assert cfg.python_call == "LLM"
    assert list(effective_spec(cfg).problems) == [_said(keyword, field)]


def test_llm_sc_keyword_is_said_once_as_speculative_config() -> None:
    text = f'from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", sc={_SC})'
    assert list(effective_spec(parse_launch_command(text)).problems) == [_said("sc", "speculative_config")]


def test_llm_full_field_names_are_not_refused() -> None:
    text = (f'from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", tensor_parallel_size=2, '
            f'pipeline_parallel_size=2, speculative_config={_SC})')
    cfg = parse_launch_command(text)
    assert cfg.tp == 2
    assert not any("EngineArgs" in line for line in effective_spec(cfg).problems)


@pytest.mark.parametrize("flag", ["--tp", "--sc"])
def test_command_line_double_dashed_short_is_still_argparse_refusal(flag: str) -> None:
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(f"vllm serve meta-llama/Llama-3.1-8B-Instruct {flag} 2")
    assert str(caught.value).startswith(f"vllm: {flag} is not vLLM's -{flag[2:]} (one dash)")


_RAY_SAID = ("tp=: AsyncEngineArgs has no field by that name (`-tp` is only the command line's other name of "
             "--tensor-parallel-size): the Ray Serve replica's AsyncEngineArgs(**engine_kwargs) raises TypeError "
             "(AsyncEngineArgs.__init__() got an unexpected keyword argument 'tp') and the engine does not start; "
             "write tensor_parallel_size=")


def test_ray_llm_config_engine_kwargs_short_alias_is_the_replicas_type_error() -> None:
    # (LLMConfig's vLLM argv carries the model as `vllm serve MODEL`: the other _vllm_config call)
    text = ('from ray.serve.llm import LLMConfig\nconfig = LLMConfig(model_loading_config=dict(model_id="llama", '
            'model_source="meta-llama/Llama-3.1-8B-Instruct"), engine_kwargs=dict(tp=2, speculative_config=dict('
            'method="eagle3", model="/models/eagle3", num_speculative_tokens=3)))')
    cfg = parse_launch_command(text)
    assert cfg.python_call == "LLMConfig"
    assert list(effective_spec(cfg).problems) == [_RAY_SAID]


def test_ray_yaml_engine_kwargs_short_alias_is_the_replicas_type_error() -> None:
    text = """applications:
- name: llm_app
  route_prefix: /
  import_path: ray.serve.llm:build_openai_app
  args:
    llm_configs:
    - model_loading_config:
        model_id: llama
        model_source: meta-llama/Llama-3.1-8B-Instruct
      engine_kwargs:
        tp: 2
        speculative_config:
          method: eagle3
          model: /models/eagle3
          num_speculative_tokens: 3
"""
    cfg = parse_launch_command(text)
    assert cfg.python_call == "LLMConfig"
    assert list(effective_spec(cfg).problems) == [_RAY_SAID]
