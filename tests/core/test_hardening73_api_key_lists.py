"""vLLM's `--api-key` takes several keys (`api_key: list[str]`), and the server logs its arguments
at startup: `non-default args: {..., 'api_key': ['sk-...', ...]}` (vllm log_non_default_args). In
every server log a run captured, the "[" was masked and each key stood in clear after it
(`'api_key': ***REDACTED***'s3cr3t-key']`), and a parsed config's `{"api_key": ["k1", "k2"]}` kept
them all. Now the list is masked whole, its brackets and quotes kept (`'api_key':
['***REDACTED***']`); a parsed list under a secret's name has each string masked; an empty list
(`api_key: []`, no key set) stays, as an empty string does."""

from __future__ import annotations

import argparse
import json

import pytest
import yaml

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value, secret_spans

_KEYS = ["s3cr3t-key-one", "s3cr3t-key-two"]


def _vllm_startup_line(keys: list[str]) -> str:
    """The line vLLM prints, from the dict it builds (%s of a dict: Python's repr)."""
    args = {"model_tag": "meta-llama/Llama-3.1-8B-Instruct", "api_key": keys, "port": 8001,
            "speculative_config": {"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B",
                                   "num_speculative_tokens": 3}}
    return "(APIServer pid=4187) INFO 10-20 11:03:12 [utils.py:233] non-default args: %s" % args


@pytest.mark.parametrize("keys", [_KEYS[:1], _KEYS])
def test_vllm_non_default_args_line(keys: list[str]) -> None:
    line = _vllm_startup_line(keys)
    assert redact_text(line) == line.replace(repr(keys), f"['{MASK}']")


def test_argparse_namespace_repr() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--api-key", nargs="+")
    parser.add_argument("--port", type=int)
    line = "args: " + repr(parser.parse_args(["--api-key", *_KEYS, "--port", "8000"]))
    assert redact_text(line) == f"args: Namespace(api_key=['{MASK}'], port=8000)"


def test_json_list_stays_parseable() -> None:
    for text in (json.dumps({"api_key": _KEYS, "port": 8000}), json.dumps({"api_key": _KEYS, "port": 8000}, indent=2)):
        assert json.loads(redact_text(text)) == {"api_key": [MASK], "port": 8000}


def test_yaml_flow_sequence() -> None:
    text = "model: meta-llama/Llama-3.1-8B-Instruct\napi-key: [s3cr3t-key-one, s3cr3t-key-two]\nport: 8000\n"
    assert redact_text(text) == f"model: meta-llama/Llama-3.1-8B-Instruct\napi-key: [{MASK}]\nport: 8000\n"


def test_parsed_list_under_a_secret_name() -> None:
    config = yaml.safe_load("api-key:\n  - s3cr3t-key-one\n  - s3cr3t-key-two\nserved-model-name: [llama, l3]\n")
    assert redact_value(config) == {"api-key": [MASK, MASK], "served-model-name": ["llama", "l3"]}
    assert redact_value({"api_key": [*_KEYS, ""], "n": 1}) == {"api_key": [MASK, MASK, ""], "n": 1}


def test_stream_of_a_server_log() -> None:
    log = ("INFO 10-20 11:03:10 [__init__.py:216] Automatically detected platform cuda.\n"
           + _vllm_startup_line(_KEYS) + "\n" + "INFO 10-20 11:03:20 [model.py:547] Resolved architecture: LlamaForCausalLM\n")
    redactor = StreamRedactor()
    out = redactor.feed(log.encode()) + redactor.close()
    assert all(key not in out.decode() for key in _KEYS)
    assert out.decode() == log.replace(repr(_KEYS), f"['{MASK}']")


@pytest.mark.parametrize("text", [
    "api_key: []",
    '{"api_key": [], "port": 8000}',
    "non-default args: {'model_tag': 'x', 'api_key': None}".replace("None", "[]"),
    '"api_keys": ["k"]',  # a name that does not end in the secret word
    "served-model-name: [llama, l3]",
])
def test_no_key_in_the_list_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
