"""SD103 'EAGLE3 with no draft path' only where the command says no draft path anywhere (review).

d9cada3 read `launch.draft_model is None` as "no --speculative-draft-model-path". It is also None
where the path is in words the text does not show, and those commands are correct: a
`--config serve.yaml` SGLang merges in (python/sglang/srt/server_args_config_parser.py
ConfigArgumentMerger) that the probe could not read, a shell expansion where flags go
(`$EXTRA_ARGS`, `"$@"` of a wrapper script), a test's `other_args` whose draft is a constant
imported from elsewhere (the flag is there, its value not), and a part of a command (no
--model-path, which SGLang's parser requires: the flags pasted alone, the continuation lines under
a cut first line). Each was a false SD103 saying a working server fails at startup; the old tree
said nothing.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.checks.launch_flags import check_algorithm
from spec_debug.diagnose.launch import parse_launch_command

BASE = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
        "--speculative-algorithm EAGLE3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
        "--speculative-num-draft-tokens 4")

SGLANG_TEST = (
    "from sglang.test.test_utils import DEFAULT_EAGLE3_DRAFT, popen_launch_server\n"
    "process = popen_launch_server('meta-llama/Llama-3.1-8B-Instruct', 'http://127.0.0.1:30000', timeout=600,\n"
    "    other_args=['--speculative-algorithm', 'EAGLE3', '--speculative-draft-model-path', DEFAULT_EAGLE3_DRAFT])\n")


@pytest.mark.parametrize("command", [
    BASE + " --config /srv/serve.yaml",
    BASE + " $EXTRA_ARGS",
    BASE + " ${SPEC_ARGS}",
    BASE + ' "$@"',
    SGLANG_TEST,
    "--speculative-algorithm EAGLE3 --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
    "    --speculative-algorithm EAGLE3 --speculative-num-steps 1 --speculative-eagle-topk 1 2>&1 | tee /workspace/server.log",
])
def test_a_draft_path_the_text_does_not_show_is_no_finding(command):
    assert check_algorithm(parse_launch_command(command), None) == []


@pytest.mark.parametrize("command", [
    BASE,
    "sglang serve meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm eagle3",
    BASE + " --config=/srv/serve.yaml",  # (never opened: SGLang reads only `--config FILE`)
])
def test_a_command_that_says_no_draft_path_is_still_sd103(command):
    (finding,) = check_algorithm(parse_launch_command(command), None)
    assert finding.code == "SD103" and finding.facts["checkpoint"] == "TARGET"


# An offline engine's `**settings` (review): a dict written in the text gives its keys, as Python
# passes them; another (`**vars(args)`) holds settings this text does not show.
ENGINE = ("import sglang as sgl\n{bind}llm = sgl.Engine(model_path='meta-llama/Llama-3.1-8B-Instruct', "
          "speculative_algorithm='EAGLE3', **{spread})\n")


@pytest.mark.parametrize("bind, spread", [
    ("spec = {'speculative_draft_model_path': 'jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B'}\n", "spec"),
    ("", "vars(args)"),
])
def test_an_engine_calls_spread_settings_hold_the_draft(bind, spread):
    cfg = parse_launch_command(ENGINE.format(bind=bind, spread=spread))
    assert check_algorithm(cfg, None) == []
    if bind:
        assert cfg.draft_model == "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"
