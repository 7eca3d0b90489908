"""Text that starts with a server flag but is no launch command (session 12 review).

'Flags pasted alone' (0a184fa) read any text whose first word is a flag only one engine has as
that engine's server command. A sentence (`--speculative-num-steps 0 drafts nothing: ...`) and
the `--help` text of the server (`--speculative-algorithm {EAGLE,EAGLE3,NEXTN}`, a flag and
argparse's choices) were then audited: SD102 'none of SGLang's algorithms', SD101 for a sentence
that names the default. Flags alone are now read only when every word is a flag or its value,
and no value is a `--help` metavar or choice list.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


# `python -m sglang.launch_server --help`, the speculative part (argparse's layout)
SGLANG_HELP = """  --speculative-algorithm {EAGLE,EAGLE3,NEXTN,STANDALONE,NGRAM}
                        Speculative algorithm.
  --speculative-num-steps SPECULATIVE_NUM_STEPS
                        The number of steps sampled from draft model in Speculative Decoding.
"""
VLLM_HELP = """  --speculative-config SPECULATIVE_CONFIG, -sc SPECULATIVE_CONFIG
                        The configurations for speculative decoding. Should be a JSON string.
"""


@pytest.mark.parametrize("text", [
    SGLANG_HELP,
    VLLM_HELP,
    "--speculative-num-steps 0 drafts nothing: SGLang needs at least 1 step",
    "--speculative-num-steps=1 --speculative-eagle-topk=1 --speculative-num-draft-tokens=2 are the defaults here",
    "--speculative-num-steps 5 made it slower; what should --speculative-eagle-topk be?",
])
def test_a_sentence_or_help_text_is_no_server_command(text):
    launch, findings = _findings(text)
    assert not launch["found"]
    assert [f.code for f in findings] == ["SD004"]
    assert "not an SGLang or vLLM server command" in findings[0].evidence[0]


def test_flags_alone_are_still_read():
    # the "SGLang MTP config" block of a public Qwen3.5 serving README, and its vLLM line
    launch, findings = _findings("--speculative-algo NEXTN\n--speculative-num-steps 3\n--speculative-eagle-topk 1\n"
                                 "--speculative-num-draft-tokens 4\n")
    assert launch["found"] and (launch["engine"], launch["num_steps"]) == ("sglang", 3)
    launch, _ = _findings("--speculative-config '{\"method\":\"mtp\",\"num_speculative_tokens\":2}'\n")
    assert launch["found"] and launch["engine"] == "vllm"
    # an algorithm name in capitals is a value, not a metavar
    launch, _ = _findings("--speculative-algorithm EAGLE3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
                          "--speculative-num-draft-tokens 4")
    assert launch["found"] and launch["algorithm"] == "EAGLE3"


def test_the_unreadable_command_line_is_one_line():
    # the SD004 evidence quotes the parse error in a sentence: the exception's "\n  hint:" broke it
    launch, findings = _findings("ls -la /models")
    assert "\n" not in launch["error"] and "\n" not in findings[0].evidence[0]
    assert "expected `python -m sglang.launch_server ...`" in findings[0].evidence[0]


@pytest.mark.parametrize("text", [
    "ps aux | grep sglang.launch_server",
    'ssh gpu01 "pgrep -af vllm.entrypoints.openai.api_server"',
    "pkill -f sglang.launch_server",
])
def test_a_search_for_the_server_process_is_no_server(text):
    # found with no findings read as "a plain server, nothing wrong"
    launch, findings = _findings(text)
    assert not launch["found"] and [f.code for f in findings] == ["SD004"]


def test_the_usage_line_of_the_help_text_is_no_server():
    launch, findings = _findings("usage: launch_server.py [-h] --model-path MODEL_PATH\n"
                                 "                        [--speculative-num-steps SPECULATIVE_NUM_STEPS]\n" + SGLANG_HELP)
    assert not launch["found"] and [f.code for f in findings] == ["SD004"]
