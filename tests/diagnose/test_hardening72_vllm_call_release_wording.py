"""A vLLM release line said of `LLM(..., speculative_config={...})` uses the call's words.

A script that builds `LLM(...)` writes no command line: EngineArgs is built from the call's keywords
(vllm/entrypoints/llm.py `LLM.__init__`), so a key of its dict is `speculative_config={"method": ...}`,
an option the release lacks is the TypeError of its keyword, and it is the engine, not a server,
that does not start. Was: `--speculative-config "method": "dflash": ... and the server does not
start`, and "argparse exits with 'unrecognized arguments'" for a keyword no argparse reads.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

_CALL = 'from vllm import LLM\nllm = LLM(model="Qwen/Qwen3-8B", {})'
_SPEC = 'speculative_config={{"method": "{}", "model": "{}", "num_speculative_tokens": 3{}}}'


def _problems(text: str, version: str) -> list[str]:
    return effective_spec(parse_launch_command(text), engine_version=version).problems


def test_a_method_the_release_lacks() -> None:
    [line] = _problems(_CALL.format(_SPEC.format("dflash", "z-lab/Qwen3-8B-DFlash-b16", "")), "0.19.0")
    assert line.startswith('speculative_config={"method": "dflash"}: vLLM 0.19.0 has no such method (added in '
                           '0.20.0)')
    assert line.endswith("and the engine does not start (upgrade vLLM to 0.20.0 or later)")


def test_a_removed_method() -> None:
    assert _problems(_CALL.format(_SPEC.format("medusa", "x/medusa", "")), "0.33.0") == [
        'speculative_config={"method": "medusa"}: vLLM 0.33.0 removed this method, and 0.33.0 refuses it at '
        "startup: the engine does not start (serve this draft with vLLM before 0.33.0, or an EAGLE-3 draft)"]


def test_a_misspelled_key() -> None:
    assert _problems(_CALL.format(_SPEC.format("eagle3", "x/eagle3", ', "num_speculative_tokenz": 4')), "0.20.0") == [
        'speculative_config["num_speculative_tokenz"]: SpeculativeConfig has no such key; vLLM 0.20.0 refuses it '
        '(pydantic: "Unexpected keyword argument") and the engine does not start (write "num_speculative_tokens")']


def test_a_key_of_another_method_and_a_json_value() -> None:
    [line] = _problems(_CALL.format(_SPEC.format("eagle3", "x/eagle3", ', "parallel_drafting": True')), "0.34.0")
    assert line.startswith('speculative_config={"parallel_drafting": True} with method eagle3: vLLM 0.34.0 refuses')


def test_an_option_the_release_lacks_is_the_keywords_type_error() -> None:
    assert _problems(_CALL.format(_SPEC.format("eagle", "x/eagle", "")), "0.8.1") == [
        "speculative_config=: vLLM 0.8.1 does not have it (added in 0.8.2; older releases take "
        "speculative_model=DRAFT, num_speculative_tokens=K): LLM(...) raises TypeError (EngineArgs.__init__() got "
        "an unexpected keyword argument 'speculative_config') and the engine does not start"]


def test_a_removed_v0_keyword() -> None:
    lines = _problems(_CALL.format('speculative_model="x/eagle", num_speculative_tokens=3'), "0.12.0")
    assert lines[0] == (
        "speculative_model=: vLLM removed it in 0.8.3; on 0.12.0 LLM(...) raises TypeError (EngineArgs.__init__() "
        "got an unexpected keyword argument 'speculative_model') and the engine does not start (write "
        'speculative_config={"model": DRAFT, "num_speculative_tokens": K})')


@pytest.mark.parametrize(("method", "version", "start"), [
    ("dflash", "0.19.0", '--speculative-config "method": "dflash": vLLM 0.19.0 has no such method'),
    ("medusa", "0.33.0", '--speculative-config "method": "medusa": vLLM 0.33.0 removed this method')])
def test_the_command_line_keeps_its_flags(method: str, version: str, start: str) -> None:
    command = ('vllm serve Qwen/Qwen3-8B --speculative-config '
               f'\'{{"method": "{method}", "model": "x/y", "num_speculative_tokens": 3}}\'')
    [line] = _problems(command, version)
    assert line.startswith(start) and line.count("the server does not start") == 1
