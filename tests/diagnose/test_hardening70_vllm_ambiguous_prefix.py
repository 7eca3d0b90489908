"""An abbreviation that starts several options of the running vLLM release stops the server.

vLLM's FlexibleArgumentParser keeps argparse's allow_abbrev (vllm/utils/argparse_utils.py; `vllm
serve`'s subparser is added without allow_abbrev), so `--max-model 4096` is --max-model-len, but a
word that is no option and starts several ("ambiguous option: --quant could match --quantization,
--quantization-config", CPython Lib/argparse.py `_parse_optional`) exits at startup. Only the
prefixes of the few options the reader knows (_VLLM_OTHER_OPTIONS) were refused; `--quant awq`,
`--trust`, `--chat TEMPLATE` passed as healthy. Judged with the release's own options (vllm_options).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import effective_spec, parse_launch_command

VLLM = "vllm serve Qwen/Qwen3-8B --max-model 4096 --gpu-mem 0.9"


def _problems(extra: str, version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(f"{VLLM} {extra}"), engine_version=version).problems)


@pytest.mark.parametrize(("word", "version", "matches"), [
    ("--quant awq", "0.34.0", "--quantization and --quantization-config"),
    ("--quant awq", "0.33.1", "--quantization and --quantization-config"),
    ("--trust", "0.18.0", "--trust-remote-code and --trust-request-chat-template"),
    ("--chat /srv/chat.jinja", "0.34.0", "--chat-template and --chat-template-content-format"),
])
def test_a_prefix_of_several_options_is_ambiguous(word, version, matches):
    name = word.split()[0]
    assert _problems(word, version) == [
        f"{name}: vLLM {version} has no such option, and argparse reads it as an abbreviation of {matches}: it exits "
        "with 'ambiguous option' and the server does not start; write the option in full"]


@pytest.mark.parametrize(("word", "version"), [
    ("--quant awq", "0.18.0"),  # --quantization-config came after 0.18.0: --quantization then
    ("--quant awq", None),  # the release not known: which options it has is not
    ("--quant awq", "0.25.0"),  # between releases read far apart
    ("--quantization awq --chat-template /srv/chat.jinja --trust-remote-code", "0.34.0"),
])
def test_where_the_options_are_not_known_or_written_in_full_it_is_taken(word, version):
    assert _problems(word, version) == []
