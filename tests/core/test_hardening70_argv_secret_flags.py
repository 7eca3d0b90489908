"""A command kept as its words (argv) has the word after a secret's flag masked.

The launch facts of a diagnose run keep the server's argv as read from /proc/PID/cmdline
(launch_step: `"argv": list(cfg.argv)`), and run.json masks them with redact_value, which read
each word alone: `--api-key` is no secret and `mysecretkey123` has no token shape, so a running
vLLM/SGLang server's API key was written in clear (the same command as one string was masked by
the `--api-key VALUE` pattern). The word after `--api-key`, `--token`, `--hf_token`, `--password`,
`--...-secret` is now masked in a list of words; an empty word, a `$VAR` and the next flag are not.
"""

from __future__ import annotations

import json
import sys

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes import launch_flags
from spec_debug.redact import MASK, redact_value
from tests.diagnose.fake_servers import server_process

SECRET = "mysecretkey123"
FAKE_VLLM = [sys.executable, "-c", "import time; time.sleep(60)", "-m", "vllm.entrypoints.cli.main", "serve"]
SPEC = json.dumps({"method": "eagle3", "model": "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B", "num_speculative_tokens": 3})


def test_a_running_servers_api_key_is_masked_in_its_launch_facts() -> None:
    with server_process(FAKE_VLLM + ["meta-llama/Llama-3.1-8B-Instruct", "--api-key", SECRET, "-sc", SPEC]) as process:
        (found,) = [p for p in launch_flags.server_processes() if p["pid"] == process["pid"]]
    facts = launch_step.parse({"source": f"/proc/{found['pid']}/cmdline", "argv": found["argv"], "models": {}})
    assert SECRET in facts["launch"]["argv"]  # the probe read it
    recorded = redact_value(facts)
    assert SECRET not in json.dumps(recorded)
    argv = recorded["launch"]["argv"]
    assert argv[argv.index("--api-key") + 1] == MASK
    assert argv[-2:] == ["-sc", SPEC]  # the rest stays evidence


@pytest.mark.parametrize("words, masked", [
    (["mongosh", "--password", "Zq9xK2mP7vL4", "--host", "db01"], ["mongosh", "--password", MASK, "--host", "db01"]),
    (["train.py", "--hf_token", "abc12345", "--lr", "1e-4"], ["train.py", "--hf_token", MASK, "--lr", "1e-4"]),
    (["x", "--webhook-secret", "s3cr3tv4lue"], ["x", "--webhook-secret", MASK]),
    (["x", "--TOKEN", "Wd3nT8rQ1yHs"], ["x", "--TOKEN", MASK]),
])
def test_the_word_after_a_secret_flag_is_masked(words: list[str], masked: list[str]) -> None:
    assert redact_value(words) == masked


@pytest.mark.parametrize("words", [
    ["serve", "--api-key", "", "meta-llama/Llama-3.1-8B-Instruct"],
    ["serve", "--api-key", "$API_KEY"],
    ["serve", "--token", "--port", "30000"],
    ["train.py", "--pad_token", "<pad>", "--eos_token", "</s>"],
    ["serve", "--speculative-token-map", "/m/t.pt", "--speculative-num-draft-tokens", "4"],
    ["serve", "--api-key"],
    ["serve", "--api-key", 4, "x"],
])
def test_what_is_no_secret_stays(words: list) -> None:
    assert redact_value(words) == words
