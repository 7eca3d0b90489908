"""`speculative_num_steps: 1` (underscores) in the YAML file of SGLang's `--config`.

SGLang's ConfigArgumentMerger writes each key as it is (`--speculative_num_steps 1`; it maps `_`
to `-` only to find store_true flags, sglang/srt/utils/server_args_config_parser.py in the 0.5.23
wheel), and its plain argparse refuses the word: the server does not start. The audit said
"--speculative_num_steps is not an SGLang flag ...; write --speculative-num-steps", a command-line
word nobody wrote, for a key of the file. It now names the key, the file and the file's fix.
Dashed keys stay read as the file's flags (the audit follows the file's values).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

TARGET = "meta-llama/Llama-3.1-8B-Instruct"
DRAFT = "yuhuili/EAGLE3-LLaMA3.1-Instruct-8B"
COMMAND = "python -m sglang.launch_server --config /srv/serve.yaml --port 30000"


def _parse(text: str) -> dict:
    return launch_step.parse({"source": "var", "cmdline": COMMAND, "models": {},
                              "config_file": {"path": "/srv/serve.yaml", "text": text}})


def _yaml(sep: str) -> str:
    return (f"model{sep}path: {TARGET}\nspeculative{sep}algorithm: EAGLE3\n"
            f"speculative{sep}draft{sep}model{sep}path: {DRAFT}\nspeculative{sep}num{sep}steps: 1\n")


def test_underscore_keys_are_said_as_the_files_keys():
    facts = _parse(_yaml("_"))
    assert facts["launch"]["error"] == (
        "sglang: the key model_path of --config /srv/serve.yaml becomes --model_path, which is not an SGLang "
        "flag (SGLang's YAML keys are its flag names with dashes: model-path); argparse exits with "
        "'unrecognized arguments' and the server does not start; write model-path: in /srv/serve.yaml")
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    [finding] = launch_step.check(ctx)
    # argparse exits, the server does not start: an error (hardening69), no longer SD004 info
    assert (finding.code, finding.severity) == ("SD102", "error")
    assert "the key model_path of --config /srv/serve.yaml" in finding.evidence[0]


def test_one_underscore_speculative_key_among_dashed_ones():
    text = _yaml("-").replace("speculative-num-steps", "speculative_num_steps")
    assert _parse(text)["launch"]["error"].startswith(
        "sglang: the key speculative_num_steps of --config /srv/serve.yaml becomes --speculative_num_steps")


def test_dashed_keys_are_the_files_flags():
    launch = _parse(_yaml("-"))["launch"]
    assert (launch["algorithm"], launch["draft_model"], launch["num_steps"]) == ("EAGLE3", DRAFT, 1)


def test_any_underscore_key_that_makes_a_word_is_refused():
    # no SGLang option string has an underscore: a flag the audit does not read is refused as well
    text = _yaml("-") + "enable_metrics: true\n"
    assert _parse(text)["launch"]["error"].startswith(
        "sglang: the key enable_metrics of --config /srv/serve.yaml becomes --enable_metrics")


@pytest.mark.parametrize("line", ["enable_metrics: false\n", "lora_paths: []\n"])
def test_an_underscore_key_that_makes_no_word_is_dropped_as_sglang_drops_it(line):
    launch = _parse(_yaml("-") + line)["launch"]
    assert (launch["found"], launch["algorithm"], launch["num_steps"]) == (True, "EAGLE3", 1)
