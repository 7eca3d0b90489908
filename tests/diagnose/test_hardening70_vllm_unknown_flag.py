"""A `--word` `vllm serve`'s parser has no option for stops the server (SD102), with did-you-mean.

vLLM builds `vllm serve`'s parser from its config dataclasses (EngineArgs.add_cli_args,
FrontendArgs, make_arg_parser) on a FlexibleArgumentParser, which keeps argparse's allow_abbrev
and reads `_` as `-`; a word no option starts with makes argparse exit with "unrecognized
arguments" and the server does not start. The audit read `--max-model-lenn 4096` or SGLang's
`--context-length 8192` as flags of their own and said nothing. spec_debug/diagnose/vllm_options.py
holds the option strings of the parser itself, dumped for 0.18.0, 0.33.0 and 0.34.0.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import REFUSED_AT_STARTUP
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.diagnose.vllm_options import VLLM_OPTIONS_BY_RELEASE
from spec_debug.probes.registry import ProbeContext

VLLM = ("vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config "
        "'{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", \"num_speculative_tokens\": 3}'")
UNRECOGNIZED = "argparse exits with 'unrecognized arguments' and the server does not start"


def _problems(command: str, version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(command), engine_version=version).problems)


def _audit(command: str, version: str | None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host = {**facts, "engine": {"name": "vllm", "version": version}} if version else facts
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    return [f for f in launch_step.check(ctx) if f.code == "SD102"]


def test_the_options_read_are_the_parsers():
    # a field of each config class, a --no- twin, the frontend's, make_arg_parser's own
    for option in ("max-model-len", "gpu-memory-utilization", "speculative-config", "enable-prefix-caching",
                   "no-enable-prefix-caching", "served-model-name", "api-server-count", "headless", "config"):
        assert all(option in VLLM_OPTIONS_BY_RELEASE[release] for release in ("0.18.0", "0.33.0", "0.34.0")), option
    # 0.34.0 added --enable-extensible-kv-cache; 0.33.0 dropped 0.18.0's --max-num-partial-prefills
    assert "enable-extensible-kv-cache" in VLLM_OPTIONS_BY_RELEASE["0.34.0"]
    assert "enable-extensible-kv-cache" not in VLLM_OPTIONS_BY_RELEASE["0.33.0"]
    assert "max-num-partial-prefills" in VLLM_OPTIONS_BY_RELEASE["0.18.0"]
    assert "max-num-partial-prefills" not in VLLM_OPTIONS_BY_RELEASE["0.33.0"]


@pytest.mark.parametrize(("word", "ending"), [
    ("--max-model-lenn 4096", "did you mean --max-model-len?"),
    ("--gpu-memory-utilisation 0.9", "did you mean --gpu-memory-utilization?"),
    ("--context-length 8192", "it is SGLang's; vLLM's is --max-model-len"),
    ("--mem-fraction-static 0.8", "it is SGLang's; vLLM's is --gpu-memory-utilization"),
])
def test_a_word_no_option_starts_is_refused_on_a_release_read(word, ending):
    name = word.split()[0]
    assert _problems(f"{VLLM} {word}", "0.34.0") == [
        f"{name}: vLLM 0.34.0 has no such option (nor one it abbreviates): {UNRECOGNIZED}; {ending}"]
    [finding] = _audit(f"{VLLM} {word}", "0.34.0")
    assert (finding.severity, finding.title) == ("error", REFUSED_AT_STARTUP)


def test_an_option_of_a_later_release_is_refused_by_an_older_one():
    [line] = _problems(f"{VLLM} --enable-extensible-kv-cache", "0.18.0")
    assert line.startswith("--enable-extensible-kv-cache: vLLM 0.18.0 has no such option")
    assert _problems(f"{VLLM} --enable-extensible-kv-cache", "0.34.0") == []
    # a patch of 0.33 is judged by 0.33.0 and 0.34.0 together
    assert _problems(f"{VLLM} --enable-extensible-kv-cache", "0.33.1") == []


def test_the_options_of_real_commands_are_accepted():
    # the docs' flags, underscores (FlexibleArgumentParser), abbreviations, --no- twins, dotted keys
    command = (f"{VLLM} --max-model-len 8192 --gpu-memory-utilization 0.9 --max_num_seqs 64 --port 8000 "
               "--host 0.0.0.0 --trust-remote-code --enforce-eager --served-model-name llama --dtype bfloat16 "
               "--no-enable-prefix-caching --enable-chunked-prefill --max-num-batched-tokens 8192 "
               "--compilation-config.cudagraph_mode FULL_DECODE_ONLY --kv-cache-dtype fp8 --disable-log-stats "
               "--uvicorn-log-level warning --max-model 4096 -tp 2")
    for version in ("0.18.0", "0.33.0", "0.34.0", None):
        assert _problems(command, version) == [], version
    assert _audit(command, "0.34.0") == []


@pytest.mark.parametrize(("version", "unless"), [
    (None, "unless the server runs a release that has it (one before 0.18.0, or after the newest read)"),
    ("0.25.0", "unless vLLM 0.25.0 has it (a release not read)"),  # between releases read far apart
    ("0.34.1", "unless vLLM 0.34.1 has it (a release not read)"),  # a patch after the newest read
])
def test_where_the_release_may_have_it_it_is_a_warning(version, unless):
    [line] = _problems(f"{VLLM} --max-model-lenn 4096", version)
    assert line == ("--max-model-lenn: vLLM has no such option (nor one it abbreviates, in the releases read: "
                    f"0.18.0, 0.33.0, 0.34.0): {UNRECOGNIZED}, {unless}; did you mean --max-model-len?")
    [finding] = _audit(f"{VLLM} --max-model-lenn 4096", version)
    assert finding.severity == "warning"


@pytest.mark.parametrize("version", ["0.17.1", "0.35.0", "0.34.1rc1", "0.34.1.dev12+g1234abc"])
def test_a_release_outside_the_ones_read_is_not_judged(version):
    assert _problems(f"{VLLM} --max-model-lenn 4096", version) == []


def test_a_v0_command_of_a_release_not_known_is_not_judged():
    # --speculative-model / --num-speculative-tokens: vLLM before 0.8.3, whose options were not read
    command = ("python -m vllm.entrypoints.openai.api_server --model facebook/opt-6.7b --speculative_model "
               "facebook/opt-125m --num_speculative_tokens 3 --use-v2-block-manager --swap-space 4")
    assert not any("no such option" in line for line in _problems(command, None))


@pytest.mark.parametrize("command", [
    # other programs have parsers of their own
    "python3 -m vllm.entrypoints.api_server --model m --max-model-lenn 4096",
    "python3 -m dynamo.vllm --model m --max-model-lenn 4096",
    # a word the shell fills in, and what follows `--`
    "vllm serve m --max-model-len 4096 --$EXTRA 1",
])
def test_what_is_not_vllm_serves_own_word_is_not_judged(command):
    assert not any("no such option" in line for line in _problems(command, "0.34.0"))


def test_the_openai_server_module_and_the_image_are_judged():
    for command in ("python3 -m vllm.entrypoints.openai.api_server --model m --max-model-lenn 4096",
                    "docker run --gpus all vllm/vllm-openai:v0.34.0 --model m --max-model-lenn 4096"):
        [line] = _problems(command, "0.34.0")
        assert line.startswith("--max-model-lenn: vLLM 0.34.0 has no such option")
