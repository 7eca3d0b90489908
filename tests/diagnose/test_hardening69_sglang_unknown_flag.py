"""A `--word` SGLang's parser has no option for (nor abbreviates) is a server that does not start.

`python -m sglang.launch_server ... --tp-sise 2` (a typo), `--mem_fraction_static 0.8` (SGLang
takes dashes only) or vLLM's `--max-model-len 4096` copied onto an SGLang command: argparse exits
with "unrecognized arguments" (CPython Lib/argparse.py parse_args) and the server never starts.
The audit read each word as a flag of its own and said nothing, only the `--speculative-*`
words were checked. spec_debug.diagnose.sglang_options holds every option string of the parser
of 30 SGLang releases (0.4.4.post4 .. 0.5.23, the PyPI wheels); a word none of them starts is
now an SD102 refusal, an error where the release is known, a warning where a later release
could have added it.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import REFUSED_AT_STARTUP
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.sglang_options import SGLANG_OPTIONS
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
          "--speculative-algorithm EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B "
          "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
UNRECOGNIZED = "argparse exits with 'unrecognized arguments' and the server does not start"


def _problems(command: str, version: str | None) -> list[str]:
    return list(effective_spec(parse_launch_command(command), engine_version=version).problems)


def _audit(command: str, version: str | None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host = {**facts, "engine": {"name": "sglang", "version": version}} if version else facts
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    return [f for f in launch_step.check(ctx) if f.code == "SD102"]


@pytest.mark.parametrize("word, fix", [
    ("--tp-sise 2", "did you mean --tp-size?"),
    ("--mem_fraction_static 0.8", "did you mean --mem-fraction-static?"),
    ("--enable-torch-compil", None),  # a prefix of --enable-torch-compile: argparse reads it as that
    ("--max-model-len 4096", "it is vLLM's; SGLang's is --context-length"),
    ("--gpu-memory-utilization 0.9", "it is vLLM's; SGLang's is --mem-fraction-static"),
])
def test_a_word_no_release_has_is_refused_at_startup(word, fix):
    problems = _problems(f"{SGLANG} {word}", "0.5.6")
    if fix is None:
        assert problems == []
        return
    name = word.split()[0]
    assert problems == [f"{name}: SGLang has no such option (nor one it abbreviates, in any release from "
                        f"0.4.4.post4 to 0.5.23): {UNRECOGNIZED}; {fix}"]
    [finding] = _audit(f"{SGLANG} {word}", "0.5.6")
    assert (finding.severity, finding.title) == ("error", REFUSED_AT_STARTUP)


def test_the_options_of_real_commands_are_accepted():
    # SGLang's docs and the cookbook's flags, abbreviations (`--mem-frac`, `--tp`) and `--no-` twins
    command = (f"{SGLANG} --tp 2 --mem-frac 0.8 --context-length 8192 --host 0.0.0.0 --port 30000 "
               "--trust-remote-code --cuda-graph-max-bs-decode 8 --attention-backend fa3 --dtype bfloat16 "
               "--enable-torch-compile --disable-radix-cache --chunked-prefill-size 4096 --log-level info "
               "--no-enable-tf32-matmul")
    assert _problems(command, "0.5.23") == []
    assert _audit(command, "0.5.23") == []
    # (the older docs' --cuda-graph-max-bs, gone in 0.5.20, abbreviates both --cuda-graph-max-bs-decode and
    # -prefill there: 'ambiguous option', test_hardening70_sglang_retired_flags.py; 0.5.19 still takes it)
    assert _problems(command.replace("-max-bs-decode", "-max-bs").replace(" --no-enable-tf32-matmul", ""),
                     "0.5.19") == []


def test_an_unknown_release_may_be_newer_than_the_ones_read():
    [line] = _problems(f"{SGLANG} --tp-sise 2", None)
    assert line.endswith(f"{UNRECOGNIZED}, unless the server runs a release after 0.5.23 that added it; "
                         "did you mean --tp-size?")
    [finding] = _audit(f"{SGLANG} --tp-sise 2", None)
    assert (finding.severity, finding.title) == ("warning", REFUSED_AT_STARTUP)
    # a release after the newest read, or before the oldest, is not judged
    assert _problems(f"{SGLANG} --tp-sise 2", "0.5.24") == []
    assert not any("SGLang has no such option" in line for line in _problems(f"{SGLANG} --tp-sise 2", "0.3.6"))


@pytest.mark.parametrize("command", [
    # the router and Dynamo's worker add options of their own to SGLang's
    "python -m sglang_router.launch_server --model-path m/x --router-policy cache_aware --tp-sise 2",
    "python3 -m dynamo.sglang --model-path m/x --endpoint dyn://a.b.c --tp-sise 2",
    # a word the shell fills in, and what follows argparse's `--`
    "python3 -m sglang.launch_server --model-path m/x --$EXTRA 2",
])
def test_programs_with_options_of_their_own_are_not_judged(command):
    assert not any("SGLang has no such option" in line for line in _problems(command, "0.5.6"))


def test_sglang_serve_is_judged_too():
    [line] = _problems("sglang serve m/x --tp-sise 2", "0.5.6")
    assert line.startswith("--tp-sise: SGLang has no such option")


def test_the_table_holds_the_parsers_option_strings():
    # from the wheels: present in 0.5.23 (--attn-cp-size), gone by then (the 0.5.3 ngram window),
    # a BooleanOptionalAction's twin, an alias; a no_cli field is not an option
    for option in ("attn-cp-size", "speculative-ngram-min-match-window-size", "no-enable-tf32-matmul",
                   "speculative-draft-model", "tensor-parallel-size", "model"):
        assert option in SGLANG_OPTIONS
    assert "speculative-boundary-reduction" not in SGLANG_OPTIONS
