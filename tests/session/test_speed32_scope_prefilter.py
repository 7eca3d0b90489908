"""baselines.stated_scope skips cutting a reading's sentence out of a context that names no engine
and no model family: the scope must be what the sentence itself gives, whatever the context names."""

from __future__ import annotations

import pytest

from spec_debug.session.baselines import Scope, _engine, _model, _sentence, stated_scope

_NAMES = ["SGLang", "sglang", "bench_one_batch", "vLLM", "VLLM", "Llama-3.1-8B", "Qwen3-30B-A3B", "deepseek-v3",
          "Mistral-7B", "Mixtral-8x7B", "gemma-2-9b", "Phi-3", "vicuna-13b", "gpt-oss-120b", "MiniCPM-4",
          "GLM-4.5", "Kimi-K2", "\u0131lama", "Qwen\u00e9 7B"]


def _by_sentence(context: str, value: float) -> Scope:
    sentence = _sentence(context, value)
    return Scope(_engine(sentence), _model(sentence))


@pytest.mark.parametrize("name", _NAMES)
def test_a_context_naming_an_engine_or_model_is_read_as_its_sentence(name):
    for context in (f"{name} decode: 54.8 tok/s at bs=1", f"Baseline 60 tok/s. With {name} 54.8 tok/s",
                    f"54.8 tok/s; {name} was slower"):
        assert stated_scope(context, 54.8) == _by_sentence(context, 54.8)


def test_a_context_naming_neither_has_no_scope():
    context = "Checking gpu-node-7 again; throughput was 97.1 tok/s. accept state log"
    assert stated_scope(context, 97.1) == Scope(None, None) == _by_sentence(context, 97.1)


def test_the_command_still_names_what_the_context_does_not():
    scope = stated_scope("throughput was 97.1 tok/s", 97.1, "python -m sglang.launch_server --model-path Qwen/Qwen3-8B")
    assert scope == Scope("sglang", ("qwen", "8"))
