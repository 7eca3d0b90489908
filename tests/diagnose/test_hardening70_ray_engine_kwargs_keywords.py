"""A name Ray Serve LLM's engine_kwargs hand vLLM that it does not take is a TypeError.

`LLMConfig(..., engine_kwargs=dict(max_model_lenn=4096, speculative_config={...}))` went through
`vllm serve`'s flag rules: "argparse exits with 'unrecognized arguments'", and `max_model=4096`
was read as --max-model-len (argparse's abbreviation). Ray starts the engine with
`AsyncEngineArgs(**engine_config.get_initialization_kwargs())` (ray
python/ray/llm/_internal/serve/deployments/llm/vllm/vllm_engine.py `_get_vllm_engine_config`):
a dataclass, so the replica raises TypeError on either name."""

from __future__ import annotations

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_RAY = '''from ray.serve.llm import LLMConfig, build_openai_app
llm_config = LLMConfig(
    model_loading_config=dict(model_id="llama", model_source="meta-llama/Llama-3.1-8B-Instruct"),
    engine_kwargs=dict({}, speculative_config={{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                                              "num_speculative_tokens": 3}}),
)
app = build_openai_app({{"llm_configs": [llm_config]}})
'''


def _problems(setting: str) -> list[str]:
    cfg = parse_launch_command(_RAY.format(setting))
    assert cfg.python_call == "LLMConfig"
    return list(effective_spec(cfg).problems)


def test_an_unknown_engine_kwarg_is_a_type_error_of_the_replica() -> None:
    assert _problems("max_model_lenn=4096") == [
        "max_model_lenn=: vLLM has no such setting (in the releases read: 0.18.0, 0.33.0, 0.34.0): the Ray Serve "
        "replica's AsyncEngineArgs(**engine_kwargs) raises TypeError (AsyncEngineArgs.__init__() got an unexpected "
        "keyword argument 'max_model_lenn') and the engine does not start, unless it runs a release that has it (one "
        "before 0.18.0, or after the newest read); did you mean max_model_len?"]


def test_an_engine_kwarg_that_starts_a_field_is_a_type_error_of_the_replica() -> None:
    assert _problems("max_model=4096") == [
        "max_model=: AsyncEngineArgs has no field by that name (a keyword argument is never read as an abbreviation, "
        "as argparse reads `--max-model`): the Ray Serve replica's AsyncEngineArgs(**engine_kwargs) raises TypeError "
        "(AsyncEngineArgs.__init__() got an unexpected keyword argument 'max_model') and the engine does not start; "
        "write the field's full name"]


def test_whole_engine_kwargs_are_no_finding() -> None:
    assert _problems("max_model_len=4096, tensor_parallel_size=1") == []
