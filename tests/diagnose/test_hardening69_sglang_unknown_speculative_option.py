"""A `--speculative-*` word no SGLang release has is a server that does not start.

SGLang's parser is argparse: `--speculative-num-stepz 5` (a typo) is neither one of its options
nor a prefix of one (allow_abbrev), so it exits with "unrecognized arguments" and the server does
not start. The audit read the word as a flag of its own and found the command healthy (vLLM's
`--speculative-confg` was already refused). The option strings are those of the PyPI wheels'
server_args.py and arg_groups, 0.4.4.post4 .. 0.5.23 (30 releases read).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import REFUSED_AT_STARTUP
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGLANG = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm "
          "EAGLE3 --speculative-draft-model-path yuhuili/EAGLE3-LLaMA3.1-Instruct-8B --speculative-num-steps 3 "
          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")


def _audit(command: str, version: str | None = None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host = dict(facts, engine={"name": "sglang", "version": version}) if version else facts
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host)
    return launch_step.check(ctx)


@pytest.mark.parametrize("typo, nearest", [
    ("--speculative-num-stepz 5", "--speculative-num-steps"),
    ("--speculative-eagle-top-k 1", "--speculative-eagle-topk"),
    ("--speculative-draft-model-pth /models/d", "--speculative-draft-model-path"),
])
def test_a_misspelled_speculative_option_is_refused_at_startup(typo, nearest):
    [finding] = _audit(f"{SGLANG} {typo}")
    assert (finding.code, finding.severity, finding.title) == ("SD102", "error", REFUSED_AT_STARTUP)
    name = typo.split()[0]
    assert finding.evidence == [
        f"{name}: SGLang has no such option (nor one it abbreviates, in any release from 0.4.4 to 0.5.23): argparse "
        f"exits with 'unrecognized arguments' and the server does not start; did you mean {nearest}?"]


@pytest.mark.parametrize("words", [
    "--speculative-num-st 3",                            # abbreviates --speculative-num-steps
    "--speculative-ngram-min-match-window-size 1",       # 0.5.3 .. 0.5.9 had it
    "--speculative-draft-model-revision main",
    "--speculative-attention-mode decode",
])
def test_an_option_some_release_has_is_not_refused(words):
    command = f"{SGLANG} {words}".replace("--speculative-num-steps 3 ", "") if "num-st " in words else f"{SGLANG} {words}"
    assert [f for f in _audit(command) if f.title == REFUSED_AT_STARTUP] == []


def test_a_word_near_no_option_says_to_drop_it():
    [finding] = _audit(f"{SGLANG} --speculative-xyzzy 1")
    assert finding.evidence[0].endswith(
        "the server does not start; drop it, or write an option `python -m sglang.launch_server --help` lists")


def test_a_release_newer_than_those_read_may_have_it():
    cfg = parse_launch_command(f"{SGLANG} --speculative-num-stepz 5")
    assert any("speculative-num-stepz" in p for p in effective_spec(cfg, engine_version="0.5.23").problems)
    assert not any("speculative-num-stepz" in p for p in effective_spec(cfg, engine_version="0.5.24").problems)
