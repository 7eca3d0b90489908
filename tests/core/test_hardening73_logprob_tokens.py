"""The logprobs an OpenAI-compatible server returns (`"logprobs": {"content": [{"token": "Hello",
"logprob": -0.31, ...}]}`), which a session asks for to see whether speculative decoding changed the
output (greedy with and without the drafter, token by token), stood in the run's output, its JSON
and the postmortem with every token ***REDACTED***: `token` is a secret's name. A logprob entry's
token is a token of the text generated; it now stays, as vLLM, SGLang and the openai client print it.
A token shape (hf_...) in it is still masked, and a `token` with no logprob beside it still is."""

from __future__ import annotations

import json

import pytest
from spec_debug.redact import MASK, redact_text, redact_value, secret_spans

# vLLM's order: token, logprob, bytes (vllm/entrypoints/openai/protocol.py, ChatCompletionLogProb)
_VLLM = {"id": "chatcmpl-1", "choices": [{"index": 0, "message": {"role": "assistant", "content": "Hello"},
         "logprobs": {"content": [{"token": "Hello", "logprob": -0.0012, "bytes": [72, 101, 108, 108, 111],
                                   "top_logprobs": [{"token": "Hello", "logprob": -0.0012, "bytes": [72, 101, 108, 108, 111]},
                                                    {"token": "Hi", "logprob": -6.9, "bytes": [72, 105]}]}]}}]}


def _openai_entry():
    """The openai client's own object: token, bytes, logprob, top_logprobs (SGLang's order too)."""
    pytest.importorskip("openai")
    from openai.types.chat.chat_completion_token_logprob import ChatCompletionTokenLogprob, TopLogprob
    return ChatCompletionTokenLogprob(token=" world", bytes=[32, 119, 111, 114, 108, 100], logprob=-0.25,
                                      top_logprobs=[TopLogprob(token=" world", bytes=None, logprob=-0.25)])


@pytest.mark.parametrize("dump", [json.dumps, lambda d: json.dumps(d, separators=(",", ":")),
                                  lambda d: json.dumps(d, indent=2)])
def test_vllm_logprobs_json_stays(dump) -> None:
    text = dump(_VLLM)
    assert redact_text(text) == text
    assert secret_spans(text) == []


# SGLang's order: token, bytes, logprob (sglang/srt/entrypoints/openai/protocol.py, TopLogprob), as
# the openai client's repr prints it too; written here, so the test runs where openai is not installed
_SGLANG = ('{"token":" world","bytes":[32,119,111,114,108,100],"logprob":-0.25,'
           '"top_logprobs":[{"token":" world","bytes":null,"logprob":-0.25}]}')
_REPR = ("ChatCompletionTokenLogprob(token=' world', bytes=[32, 119, 111, 114, 108, 100], logprob=-0.25, "
         "top_logprobs=[TopLogprob(token=' world', bytes=None, logprob=-0.25)])")


@pytest.mark.parametrize("text", [_SGLANG, _REPR])
def test_sglang_order_and_client_repr_stay(text: str) -> None:
    assert redact_text(text) == text
    assert redact_value(json.loads(_SGLANG)) == json.loads(_SGLANG)


def test_vllm_logprobs_parsed_stays() -> None:
    assert redact_value(_VLLM) == _VLLM


def test_openai_client_objects_stay() -> None:
    entry = _openai_entry()
    for text in (repr(entry), entry.model_dump_json(), json.dumps(entry.model_dump())):
        assert redact_text(text) == text
    assert redact_value(entry.model_dump()) == entry.model_dump()


def test_token_shape_inside_still_masked() -> None:
    token = "hf_" + "AbCdEfGhIjKlMnOpQrStUvWx"
    text = json.dumps({"token": token, "logprob": -1.0, "bytes": None})
    assert redact_text(text) == json.dumps({"token": MASK, "logprob": -1.0, "bytes": None})
    assert redact_value({"token": token, "logprob": -1.0}) == {"token": MASK, "logprob": -1.0}


@pytest.mark.parametrize("text, masked", [
    ('{"token": "s3cr3t-value", "expires_at": 1767225600}', f'{{"token": "{MASK}", "expires_at": 1767225600}}'),
    ('{"token": "s3cr3t-value", "bytes": 512}', f'{{"token": "{MASK}", "bytes": 512}}'),
    ('token=s3cr3t-value, user=bob', f'token={MASK}, user=bob'),
])
def test_other_tokens_still_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_other_dicts_still_masked() -> None:
    assert redact_value({"token": "s3cr3t-value", "user": "bob"}) == {"token": MASK, "user": "bob"}
