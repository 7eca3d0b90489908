"""A name a Python engine call does not take is Python's TypeError, not argparse's exit.

`LLM(model=..., max_model_lenn=4096, speculative_config={...})` and `sgl.Engine(...,
bogus_kwarg=3)` went through the server command's flag rules, so the audit said "argparse exits
with 'unrecognized arguments' and the server does not start" (and, for an abbreviation, that
older SGLang releases read it as the full option): a script that builds the engine never runs
argparse. vLLM's LLM(model, ..., **kwargs) hands its keywords to EngineArgs(...), SGLang's
Engine(**kwargs) to ServerArgs(**kwargs) (python/sglang/srt/entrypoints/engine.py
`Engine.__init__`), both dataclasses: an unknown name raises TypeError ("... got an unexpected
keyword argument"), and a prefix of a field is no field. A command line keeps argparse's words."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_VLLM_SPEC = '{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'
_SGLANG_SPEC = ('model_path="meta-llama/Llama-3.1-8B-Instruct", speculative_algorithm="EAGLE3", '
                'speculative_draft_model_path="/models/eagle3", speculative_num_steps=3, speculative_eagle_topk=1, '
                'speculative_num_draft_tokens=4')
_VLLM_UNKNOWN = ("max_model_lenn=: vLLM has no such setting (in the releases read: 0.18.0, 0.33.0, 0.34.0): LLM(...) "
                 "raises TypeError (EngineArgs.__init__() got an unexpected keyword argument 'max_model_lenn') and "
                 "the engine does not start, unless it runs a release that has it (one before 0.18.0, or after the "
                 "newest read); did you mean max_model_len?")


def _problems(text: str) -> list[str]:
    return list(effective_spec(parse_launch_command(text)).problems)


@pytest.mark.parametrize("text", [
    f"from vllm import LLM\nllm = LLM(model=\"meta-llama/Llama-3.1-8B-Instruct\", max_model_lenn=4096, "
    f"speculative_config={_VLLM_SPEC})",
    # the same call run by `python -c`, with an environment before the interpreter
    f"CUDA_VISIBLE_DEVICES=0 python -c 'from vllm import LLM; llm = LLM(model=\"meta-llama/Llama-3.1-8B-Instruct\", "
    f"max_model_lenn=4096, speculative_config={_VLLM_SPEC})'",
])
def test_an_unknown_llm_keyword_is_a_type_error(text: str) -> None:
    assert parse_launch_command(text).python_call == "LLM"
    assert _problems(text) == [_VLLM_UNKNOWN]


def test_an_unknown_engine_keyword_is_a_type_error() -> None:
    text = f"import sglang as sgl\nllm = sgl.Engine({_SGLANG_SPEC}, context_lenght=4096)"
    assert _problems(text) == [
        "context_lenght=: SGLang has no such setting (in any release from 0.4.4.post4 to 0.5.23): Engine(...) raises "
        "TypeError (ServerArgs.__init__() got an unexpected keyword argument 'context_lenght') and the engine does "
        "not start, unless it runs a release after 0.5.23 that added it; did you mean context_length?"]


def test_an_unknown_speculative_keyword_names_the_field() -> None:
    text = (f"import sglang as sgl\nllm = sgl.Engine({_SGLANG_SPEC.replace('speculative_num_steps', 'speculative_num_stepz')})")
    assert _problems(text)[0] == (
        "speculative_num_stepz=: SGLang has no such setting (in any release from 0.4.4 to 0.5.23): Engine(...) raises "
        "TypeError (ServerArgs.__init__() got an unexpected keyword argument 'speculative_num_stepz') and the engine "
        "does not start; did you mean speculative_num_steps?")


def test_a_keyword_abbreviation_is_no_field_on_any_release() -> None:
    # argparse reads `--speculative-draft` as --speculative-draft-model-path before SGLang 0.5.2;
    # a keyword argument is never an abbreviation: refused whatever the release
    text = f"import sglang as sgl\nllm = sgl.Engine({_SGLANG_SPEC}, speculative_draft=\"/models/eagle3\")"
    assert _problems(text) == [
        "speculative_draft=: ServerArgs has no field by that name (a keyword argument is never read as an "
        "abbreviation, as argparse reads `--speculative-draft`): Engine(...) raises TypeError (ServerArgs.__init__() "
        "got an unexpected keyword argument 'speculative_draft') and the engine does not start; write the field's "
        "full name (it starts the options --speculative-draft-model-path and --speculative-draft-model-revision)"]


def test_the_command_line_keeps_argparses_words() -> None:
    text = f"vllm serve meta-llama/Llama-3.1-8B-Instruct --max-model-lenn 4096 --speculative-config '{_VLLM_SPEC}'"
    assert parse_launch_command(text).python_call is None
    assert _problems(text) == [
        "--max-model-lenn: vLLM has no such option (nor one it abbreviates, in the releases read: 0.18.0, 0.33.0, "
        "0.34.0): argparse exits with 'unrecognized arguments' and the server does not start, unless the server runs "
        "a release that has it (one before 0.18.0, or after the newest read); did you mean --max-model-len?"]


def test_another_engines_keyword_is_a_type_error_too() -> None:
    text = f"from vllm import LLM\nllm = LLM(model=\"meta-llama/Llama-3.1-8B-Instruct\", tp_size=2, speculative_config={_VLLM_SPEC})"
    assert _problems(text) == [
        "tp_size=: vLLM has no such setting (it is SGLang's): LLM(...) raises TypeError (EngineArgs.__init__() got an "
        "unexpected keyword argument 'tp_size') and the engine does not start; vLLM's is tensor_parallel_size (-tp)"]
