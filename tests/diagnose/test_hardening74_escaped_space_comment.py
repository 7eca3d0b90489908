"""A comment after a `\\` and a space (`--tp 2 \\ # two GPUs`) ends the continued server command.

    vllm serve meta-llama/Llama-3.1-8B-Instruct \\
      --tensor-parallel-size 2 \\ # two GPUs
      --speculative-config '{"method": "eagle3", ...}'

The `\\` escapes the space after it, not the newline (bash(1) QUOTING), so bash ends the command on
that line: the server gets the escaped space as a word (with `\\ #note`, " #" and "note": a `#`
inside a word starts no comment) and the flag lines below run as a command of their own ("command
not found"). The audit dropped the comment, joined the lines and judged an EAGLE-3 server that
never runs. Now the command ends there, as bash runs it: SD102 "runs without speculative decoding".
"""

from __future__ import annotations

import subprocess

import pytest

from spec_debug.diagnose.launch import LaunchParseError, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.diagnose.steps.launch_step import WITHOUT_SPECULATION_TITLE
from spec_debug.probes.registry import ProbeContext

_CONFIG = """'{"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3}'"""
_SCRIPT = ("vllm serve meta-llama/Llama-3.1-8B-Instruct \\\n"
           "  --tensor-parallel-size 2 \\@NOTE@\n"
           f"  --speculative-config {_CONFIG} \\\n"
           "  --port 8000\n")


def _script(note: str) -> str:
    return _SCRIPT.replace("@NOTE@", note)


@pytest.mark.parametrize(("note", "words"), [(" # two GPUs", "[ #][two][GPUs]"), ("  # two GPUs", "[ ]"),
                                             ("\t# two GPUs", "[\t#][two][GPUs]")])
def test_bash_ends_the_command_on_that_line(note: str, words: str) -> None:
    run = subprocess.run(["bash", "-c", _script(note).replace("vllm serve", "printf '[%s]'")],
                         capture_output=True, text=True, check=False)
    assert run.stdout == "[meta-llama/Llama-3.1-8B-Instruct][--tensor-parallel-size][2]" + words
    assert "--speculative-config: command not found" in run.stderr


@pytest.mark.parametrize("note", [" # two GPUs", "  # two GPUs", "\t# two GPUs"])
def test_the_server_is_said_to_run_without_speculation(note: str) -> None:
    script = _script(note)
    with pytest.raises(LaunchParseError) as refused:
        parse_launch_command(script)
    assert refused.value.message == (
        "a `\\` followed by a space escapes the space, not the newline, so a comment after it (`\\ # ...`) ends "
        "the continued server command (bash gives the server the escaped space as a word and reads no line "
        "continuation): the server starts with the words above it, and the lines below it (--speculative-config) "
        "run as a command of their own that bash cannot find, so the server runs without speculative decoding")
    assert refused.value.hint == ("end the line with the `\\` alone (move the comment above the command) so the "
                                  "flags after it reach the server")
    facts = launch_step.parse({"source": "var", "cmdline": script, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                       host_facts=dict(facts, engine={"name": "vllm", "version": "0.11.0"}))
    [finding] = launch_step.check(ctx)
    assert (finding.code, finding.severity, finding.title) == ("SD102", "warning", WITHOUT_SPECULATION_TITLE)


def test_a_sglang_command_keeps_only_the_words_bash_gives_it() -> None:
    cfg = parse_launch_command("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"
                               "  --speculative-algorithm EAGLE3 \\  # the drafter below\n"
                               "  --speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B \\\n"
                               "  --speculative-num-steps 3\n")
    assert cfg.argv[3:] == ("--model-path", "meta-llama/Llama-3.1-8B-Instruct", "--speculative-algorithm", "EAGLE3",
                            " ")
    assert (cfg.draft_model, cfg.num_steps) == (None, None)


def test_a_plain_continuation_still_joins() -> None:
    # the `\\` alone at the line's end (trailing blanks allowed, a copy's padding) continues it
    for note in ("", "  "):
        cfg = parse_launch_command(_script(note))
        assert (cfg.algorithm, cfg.num_steps, cfg.tp) == ("EAGLE3", 3, 2)
    # and a `#` inside a quoted value is no comment
    cfg = parse_launch_command(_script("").replace("--port 8000", "--served-model-name 'llama \\ #1'"))
    assert cfg.flags["served-model-name"] == "llama \\ #1"
