"""SGLang's Engine takes keyword arguments only: a positional model path is Python's TypeError.

`sgl.Engine("meta-llama/Llama-3.1-8B-Instruct", speculative_algorithm="EAGLE3", ...)` was audited
as if the path were `model_path=`, and nothing was said. SGLang declares `Engine.__init__(self,
**kwargs)` and builds ServerArgs(**kwargs) from them (python/sglang/srt/entrypoints/engine.py, the
early entrypoints/engine.py and the newest alike), so the call raises "TypeError:
Engine.__init__() takes 1 positional argument but 2 were given" and no engine starts. ServerArgs
itself (a dataclass whose first field is model_path) and vLLM's LLM(model, ...) do take the model
positionally."""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import parse_launch_command
from spec_debug.diagnose.launch_errors import LaunchParseError

_SPEC = ('speculative_algorithm="EAGLE3", speculative_draft_model_path="/models/eagle3", speculative_num_steps=3, '
         'speculative_eagle_topk=1, speculative_num_draft_tokens=4')


def test_a_positional_model_path_of_sglang_engine_is_a_type_error() -> None:
    text = f'import sglang as sgl\nllm = sgl.Engine("meta-llama/Llama-3.1-8B-Instruct", {_SPEC})'
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(text)
    assert caught.value.message == (
        "Engine('meta-llama/Llama-3.1-8B-Instruct', ...): SGLang's Engine takes keyword arguments only "
        "(Engine.__init__(self, **kwargs)): Python raises TypeError (Engine.__init__() takes 1 positional argument "
        "but 2 were given) and the engine does not start")
    assert caught.value.hint == "name it: Engine(model_path='meta-llama/Llama-3.1-8B-Instruct', ...)"


def test_two_positionals_count_as_python_counts_them() -> None:
    text = f'import sglang as sgl\nMODEL = "Qwen/Qwen3-8B"\nllm = sgl.Engine(MODEL, 2, {_SPEC})'
    with pytest.raises(LaunchParseError) as caught:
        parse_launch_command(text)
    assert caught.value.message.startswith("Engine(MODEL, ...): SGLang's Engine takes keyword arguments only")
    assert caught.value.message.endswith("(Engine.__init__() takes 1 positional argument but 3 were given) and the "
                                         "engine does not start")
    assert caught.value.hint == "name each setting: Engine(model_path=..., ...)"


def test_keywords_and_the_positional_calls_that_take_one_are_read() -> None:
    text = f'import sglang as sgl\nllm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct", {_SPEC})'
    assert parse_launch_command(text).target_model == "meta-llama/Llama-3.1-8B-Instruct"
    text = ('from sglang.srt.server_args import ServerArgs\n'
            f'args = ServerArgs("meta-llama/Llama-3.1-8B-Instruct", {_SPEC})')
    cfg = parse_launch_command(text)
    assert (cfg.python_call, cfg.target_model, cfg.num_steps) == ("ServerArgs", "meta-llama/Llama-3.1-8B-Instruct", 3)
    text = ('from vllm import LLM\nllm = LLM("meta-llama/Llama-3.1-8B-Instruct", speculative_config={"method": '
            '"eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})')
    assert parse_launch_command(text).target_model == "meta-llama/Llama-3.1-8B-Instruct"

