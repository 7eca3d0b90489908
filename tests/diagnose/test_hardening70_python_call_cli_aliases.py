"""A command-line alias of an SGLang setting is no keyword of sgl.Engine(...).

`sgl.Engine(model="meta-llama/...", ...)` passed without a word: the call's keywords went through
the server command's flag rules, where `--model` is SGLang's alias of `--model-path`. Engine(**kwargs)
builds ServerArgs(**kwargs) (python/sglang/srt/entrypoints/engine.py), and ServerArgs declares the
field `model_path` with `aliases=["--model"]` for the command line only (server_args.py); likewise
`tp_size` with "--tensor-parallel-size" (arg_groups/fields/parallel.py), and older releases folded
`args.tp_size = args.tensor_parallel_size` in ServerArgs.from_cli_args. So Python raises TypeError
("... got an unexpected keyword argument 'model'") and the engine does not start. The command line
keeps reading the alias."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_SPEC = ('speculative_algorithm="EAGLE3", speculative_num_steps=3, speculative_eagle_topk=1, '
         'speculative_num_draft_tokens=4')


def _problems(text: str) -> list[str]:
    return list(effective_spec(parse_launch_command(text)).problems)


def _said(keyword: str, field: str, call: str = "Engine") -> str:
    dashed, field_dashed = keyword.replace("_", "-"), field.replace("_", "-")
    return (f"{keyword}=: ServerArgs has no field by that name (`--{dashed}` is only the command line's other "
            f"name of --{field_dashed}): {call}(...) raises TypeError (ServerArgs.__init__() got an unexpected "
            f"keyword argument '{keyword}') and the engine does not start; write {field}=")


def test_engine_model_keyword_is_a_type_error_naming_model_path() -> None:
    text = (f'import sglang as sgl\nllm = sgl.Engine(model="meta-llama/Llama-3.1-8B-Instruct", '
            f'speculative_draft_model_path="/models/eagle3", {_SPEC})')
    cfg = parse_launch_command(text)
    assert cfg.python_call == "Engine"
    assert _problems(text) == [_said("model", "model_path")]


@pytest.mark.parametrize(("keyword", "field", "value"), [
    ("speculative_draft_model", "speculative_draft_model_path", '"/models/eagle3"'),
    ("tensor_parallel_size", "tp_size", "2"),
    ("data_parallel_size", "dp_size", "2"),
    ("ep", "ep_size", "2"),
])
def test_other_cli_only_names_are_type_errors(keyword: str, field: str, value: str) -> None:
    draft = "" if keyword == "speculative_draft_model" else 'speculative_draft_model_path="/models/eagle3", '
    text = (f'import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", {draft}'
            f'{keyword}={value}, {_SPEC})')
    assert _problems(text) == [_said(keyword, field)]


def test_server_args_call_is_named() -> None:
    text = ('from sglang.srt.server_args import ServerArgs\nargs = ServerArgs(model="meta-llama/Llama-3.1-8B-Instruct", '
            f'speculative_draft_model_path="/models/eagle3", {_SPEC})')
    assert parse_launch_command(text).python_call == "ServerArgs"
    assert _problems(text) == [_said("model", "model_path", "ServerArgs")]


def test_field_names_and_the_command_line_say_nothing() -> None:
    text = ('import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", '
            f'speculative_draft_model_path="/models/eagle3", tp_size=2, {_SPEC})')
    assert _problems(text) == []
    command = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
               "--speculative-draft-model /models/eagle3 --tensor-parallel-size 2 --speculative-num-steps 3 "
               "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert parse_launch_command(command).python_call is None
    assert _problems(command) == []
