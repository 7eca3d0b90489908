"""A fragment of a launch script's continuation lines, and SGLang flags with no algorithm (session 13).

What users expect: a script excerpt that starts mid-command (`  --flag v \\` lines) is audited as
the command it is part of, with the same findings the whole command gives, and a flag that is
not in the excerpt is not guessed. So:
- the excerpt taken from the line after `vllm serve \\` starts with the model, vLLM's one
  positional: it was 'not an SGLang or vLLM server command';
- `--speculative-eagle-topk` / `--speculative-num-draft-tokens` are flags only SGLang has (vLLM's
  speculative settings are --speculative-config keys): an excerpt of those was no command;
- SGLang with no --speculative-algorithm does not speculate (server_args.py runs the EAGLE-family
  rules only under `if self.speculative_algorithm in ("EAGLE", "EAGLE3", "STANDALONE")`), so an
  SD101 'capped at one drafted token' or an SD102 'SGLang asserts ... at startup' about its
  step/topk/draft-token values described a server that does not run. Whole command and excerpt
  alike now get one SD004 line saying the algorithm is missing (or above the excerpt).
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.launch import split_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return facts["launch"], launch_step.check(ctx)


SPEC_LINES = """  --speculative-algorithm EAGLE3 \\
  --speculative-draft-model-path jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B \\
  --speculative-num-steps 1 \\
  --speculative-eagle-topk 1 \\
  --speculative-num-draft-tokens 2 \\
  --mem-fraction-static 0.7 \\
  --port 30000
"""


@pytest.mark.parametrize("head", ["", "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct \\\n"])
def test_an_excerpt_and_its_whole_command_agree(head):
    launch, findings = _findings(head + SPEC_LINES)
    assert launch["found"] and launch["engine"] == "sglang"
    assert [f.code for f in findings] == ["SD101"]


def test_an_excerpt_from_the_model_line_of_vllm_serve():
    excerpt = ("  meta-llama/Llama-3.1-8B-Instruct \\\n"
               "  --speculative-config '{\"method\": \"eagle3\", \"model\": \"yuhuili/EAGLE3-LLaMA3.1-Instruct-8B\", "
               "\"num_speculative_tokens\": 1}' \\\n"
               "  --max-model-len 8192 \\\n  --port 8000\n")
    assert split_command(excerpt)[:3] == ["vllm", "serve", "meta-llama/Llama-3.1-8B-Instruct"]
    launch, findings = _findings(excerpt)
    assert launch["target_model"] == "meta-llama/Llama-3.1-8B-Instruct" and launch["num_steps"] == 1
    assert [f.code for f in findings] == ["SD101"]


def test_a_script_path_before_vllm_flags_is_no_model():
    assert split_command("./bench.sh --max-num-seqs 4 --max-model-len 8192")[0] == "./bench.sh"


@pytest.mark.parametrize("text", [
    "  --speculative-eagle-topk 8 \\\n  --speculative-num-draft-tokens 64 \\\n  --tp 8\n",
    "python3 -m sglang.launch_server --model-path m --speculative-eagle-topk 8 --speculative-num-draft-tokens 64",
    "python3 -m sglang.launch_server --model-path m --speculative-num-steps 1 --speculative-eagle-topk 1 "
    "--speculative-num-draft-tokens 2",
])
def test_sglang_knobs_with_no_algorithm_say_so(text):
    # the excerpt may have the algorithm above its lines (SD004); the whole command serves without
    # speculation (SD102 warning, tests/diagnose/test_hardening70_sglang_no_algorithm.py)
    launch, findings = _findings(text)
    assert launch["found"] and launch["engine"] == "sglang"
    assert [f.code for f in findings] == (["SD004"] if text.startswith(" ") else ["SD102"])
    assert "no --speculative-algorithm" in findings[0].evidence[0]


def test_a_plain_sglang_server_stays_silent():
    _, findings = _findings("python3 -m sglang.launch_server --model-path m --tp 8")
    assert findings == []
