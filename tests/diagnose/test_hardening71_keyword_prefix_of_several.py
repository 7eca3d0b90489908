"""A Python engine keyword that starts several fields' names is Python's TypeError, not argparse's.

`LLM(..., max_num=4)` stopped the audit with "vllm: --max-num is ambiguous ... (argparse exits with
'ambiguous option', the server does not start)": the keyword was expanded as `vllm serve`'s parser
expands `--max-num`. No argparse reads a keyword argument: vLLM's LLM builds
EngineArgs(model=model, ..., **kwargs) (vllm/entrypoints/llm.py), Ray Serve LLM's replica
AsyncEngineArgs(**engine_kwargs), SGLang's Engine ServerArgs(**kwargs), dataclasses whose fields
are named whole, so Python raises TypeError ("got an unexpected keyword argument 'max_num'").
Which field was meant is not known, so the options the keyword starts are named."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

_VLLM = ('from vllm import LLM\nllm = LLM(model="meta-llama/Llama-3.1-8B-Instruct", {}, speculative_config='
         '{{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}})')
_RAY = ('from ray.serve.llm import LLMConfig\nconfig = LLMConfig(model_loading_config=dict(model_id="llama", '
        'model_source="meta-llama/Llama-3.1-8B-Instruct"), engine_kwargs=dict({}, speculative_config=dict('
        'method="eagle3", model="yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", num_speculative_tokens=3)))')
_SGLANG = ('import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", '
           'speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3", speculative_num_steps=3, '
           'speculative_eagle_topk=1, {}, speculative_num_draft_tokens=4)')

_MAX_NUM = ("max_num=: EngineArgs has no field by that name (a keyword argument is never read as an abbreviation, as "
            "argparse reads `--max-num`): LLM(...) raises TypeError (EngineArgs.__init__() got an unexpected keyword "
            "argument 'max_num') and the engine does not start; write the field's full name")


def _problems(text: str, engine_version: str | None = None) -> list[str]:
    return list(effective_spec(parse_launch_command(text), engine_version=engine_version).problems)


def test_an_llm_keyword_that_starts_several_fields_is_a_type_error_naming_them() -> None:
    # vLLM 0.33.0's options that start with max-num
    assert _problems(_VLLM.format("max_num=4"), "0.33.0") == [
        _MAX_NUM + " (it starts the options --max-num-active-seqs, --max-num-batched-tokens, --max-num-queued-reqs, "
        "--max-num-queued-tokens, --max-num-scheduled-tokens and --max-num-seqs)"]
    # the release not known: those of the releases read, six named
    assert _problems(_VLLM.format("max_num=4")) == [
        _MAX_NUM + " (it starts the options --max-num-active-seqs, --max-num-batched-tokens, "
        "--max-num-inflight-kv-loads, --max-num-partial-prefills, --max-num-queued-reqs, --max-num-queued-tokens "
        "and 2 more)"]
    # a release older than the ones read: still no field (it was refused on every release), its
    # options not known here
    assert _problems(_VLLM.format("max_num=4"), "0.11.0") == [_MAX_NUM]


def test_the_same_keyword_in_ray_serve_engine_kwargs_is_the_replicas_type_error() -> None:
    [line] = _problems(_RAY.format("max_num=4"), "0.33.0")
    assert line.startswith(
        "max_num=: AsyncEngineArgs has no field by that name (a keyword argument is never read as an abbreviation, "
        "as argparse reads `--max-num`): the Ray Serve replica's AsyncEngineArgs(**engine_kwargs) raises TypeError "
        "(AsyncEngineArgs.__init__() got an unexpected keyword argument 'max_num') and the engine does not start; "
        "write the field's full name (it starts the options --max-num-active-seqs, ")


def test_an_sglang_keyword_that_starts_several_fields_names_them() -> None:
    assert _problems(_SGLANG.format("pp=2"), "0.5.23") == [
        "pp=: ServerArgs has no field by that name (a keyword argument is never read as an abbreviation, as argparse "
        "reads `--pp`): Engine(...) raises TypeError (ServerArgs.__init__() got an unexpected keyword argument 'pp') "
        "and the engine does not start; write the field's full name (it starts the options --pp-async-batch-depth, "
        "--pp-max-micro-batch-size and --pp-size)"]


def test_on_the_command_line_the_prefix_is_still_argparses_ambiguous_option() -> None:
    with pytest.raises(LaunchParseError, match=r"--max-num is ambiguous: it could match .*'ambiguous option'"):
        parse_launch_command("vllm serve meta-llama/Llama-3.1-8B-Instruct --max-num 4")
    # and a whole field name given as a keyword is no finding
    assert _problems(_VLLM.format("max_num_seqs=4"), "0.33.0") == []
