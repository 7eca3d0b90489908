"""A keyword argument that only starts a field's name is no field: Python's TypeError.

`sgl.Engine(..., speculative_eagle_top=4)` and `LLM(..., max_model=4096)` were read as argparse
reads `--speculative-eagle-top` / `--max-model` (allow_abbrev: the option they start), so the
audit took topk 4 and a context length and said nothing. SGLang's Engine(**kwargs) builds
ServerArgs(**kwargs) (python/sglang/srt/entrypoints/engine.py `Engine.__init__`), vLLM's LLM
builds EngineArgs(model=model, ..., **kwargs) (vllm/entrypoints/llm.py): dataclasses, whose
fields are named whole, so Python raises TypeError and the engine does not start."""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import REFUSED_AT_STARTUP, check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SGLANG = ('import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", '
           'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3", speculative_num_steps=3, '
           '{}, speculative_num_draft_tokens=4)')
_VLLM = ('from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", {}, speculative_config='
         '{{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}})')


def _problems(text: str) -> list[str]:
    return list(effective_spec(parse_launch_command(text)).problems)


def test_an_engine_keyword_that_starts_a_field_is_a_type_error() -> None:
    text = _SGLANG.format("speculative_eagle_top=4")
    assert _problems(text) == [
        "speculative_eagle_top=: ServerArgs has no field by that name (a keyword argument is never read as an "
        "abbreviation, as argparse reads `--speculative-eagle-top`): Engine(...) raises TypeError "
        "(ServerArgs.__init__() got an unexpected keyword argument 'speculative_eagle_top') and the engine does not "
        "start; write the field's full name"]
    # the launch audit: the engine does not start, an error
    launch = parse_launch_command(text)
    [finding] = check_draft_budget(launch, effective_spec(launch))
    assert (finding.title, finding.severity) == (REFUSED_AT_STARTUP, "error")


def test_an_llm_keyword_that_starts_a_field_is_a_type_error() -> None:
    assert _problems(_VLLM.format("max_model=4096")) == [
        "max_model=: EngineArgs has no field by that name (a keyword argument is never read as an abbreviation, as "
        "argparse reads `--max-model`): LLM(...) raises TypeError (EngineArgs.__init__() got an unexpected keyword "
        "argument 'max_model') and the engine does not start; write the field's full name"]


def test_whole_field_names_and_command_lines_are_no_finding() -> None:
    assert _problems(_SGLANG.format("speculative_eagle_topk=4, mem_fraction_static=0.8, tp_size=1")) == []
    assert _problems(_VLLM.format("max_model_len=4096, tensor_parallel_size=1, gpu_memory_utilization=0.9")) == []
    # on a command line argparse reads the abbreviation (one option starts with it)
    assert _problems("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
                     "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 "
                     "--speculative-num-steps 3 --speculative-eagle-top 4 --speculative-num-draft-tokens 4") == []
