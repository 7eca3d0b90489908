"""_stated asks whether a reading's context may name an engine or a model (a literal of
_SCOPE_WORDS) before it cuts the reading's sentence, with the literals that hold "m", "v" or "_"
behind a test for that letter. Each literal must still be read, in any case."""

import pytest

from spec_debug.session import baselines

ENGINES = {"sglang": "sglang", "bench_one_batch": "sglang", "vllm": "vllm"}


@pytest.mark.parametrize("word", baselines._SCOPE_WORDS)
def test_every_scope_word_is_read(word):
    if word in ENGINES:
        expected, sized = (ENGINES[word], None), (ENGINES[word], None)
    else:
        expected, sized = (None, (word, None)), (None, (word, "8"))
    assert baselines._stated(f"with {word} at 90 tok/s", 90.0, "") == expected
    assert baselines._stated(f"Throughput on {word.upper()}-8B was 90 tok/s", 90.0, "") == sized


def test_scope_read_from_the_sentence():
    assert baselines._stated("Llama-3.1-8B on SGLang: 120 tok/s", 120.0, "") == ("sglang", ("llama", "8"))
    assert baselines._stated("Mixtral under vLLM: 120 tok/s", 120.0, "") == ("vllm", ("mixtral", None))
    assert baselines._stated("Checking gpu-node-7 again; throughput was 45.7 tok/s. the draft", 45.7, "") == (None, None)
    # the long s (U+017F) matches "s" case-insensitively: the text is read, not tested with ``in``
    assert baselines._stated("\u017fglang: 120 tok/s", 120.0, "") == (None, None)
