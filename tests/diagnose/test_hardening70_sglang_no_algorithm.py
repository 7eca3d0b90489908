"""SGLang `--speculative-*` settings with no --speculative-algorithm: the server does not speculate.

SGLang's speculative_algorithm defaults to None, and only an algorithm starts a draft worker and
reads the draft path, steps, topk and draft tokens (python/sglang/srt/server_args.py
`_handle_speculative_decoding` up to 0.5.15, arg_groups/speculative_hook.py
`handle_speculative_decoding` from 0.5.16: every speculative rule sits under `speculative_algorithm
is not None`). A whole command that sets them without the algorithm starts, serves every request
without a draft and says nothing: it was SD004 info ("Not checked"), a clean partial diagnosis,
though nothing was left unread. It is SD102 at warning severity, as KServe's dropped settings are.
An excerpt of a command's flags (the algorithm may be above it), a --config file not read, or a
`$SPEC_ARGS` left as written may hold the algorithm: those stay SD004.
"""

from __future__ import annotations

import pytest

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

DRAFT = "jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B"


def _findings(command: str):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    return launch_step.check(ctx)


@pytest.mark.parametrize("command", [
    f"python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-model-path "
    f"{DRAFT} --speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
    f"sglang serve --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-draft-model-path {DRAFT}",
])
def test_a_whole_command_without_the_algorithm_serves_without_a_draft(command):
    findings = _findings(command)
    assert [(f.code, f.severity) for f in findings] == [("SD102", "warning")]
    finding = findings[0]
    assert finding.title == "The server runs this launch command without speculative decoding"
    assert "--speculative-draft-model-path but no --speculative-algorithm" in finding.evidence[0]
    assert "the server runs without speculative decoding" in finding.evidence[0]
    assert finding.facts["fix"].startswith("add --speculative-algorithm EAGLE3")


def test_the_flags_named_are_the_ones_written():
    findings = _findings("python3 -m sglang.launch_server --model-path m --speculative-num-steps 5")
    assert findings[0].code == "SD102"
    assert findings[0].evidence[0].startswith("the SGLang command sets --speculative-num-steps but no ")


@pytest.mark.parametrize("command", [
    # continuation lines cut from a script: the algorithm may be on a line above them
    f"  --speculative-draft-model-path {DRAFT} \\\n  --speculative-num-steps 3 \\\n  --tp 8\n",
    # the algorithm may be in the expansion
    f"python3 -m sglang.launch_server --model-path m --speculative-draft-model-path {DRAFT} $SPEC_ARGS",
    # or in the --config file, not read here
    f"python3 -m sglang.launch_server --config /srv/spec.yaml --model-path m --speculative-draft-model-path {DRAFT}",
])
def test_what_may_hold_the_algorithm_stays_a_check_not_done(command):
    findings = _findings(command)
    assert findings and {f.code for f in findings} == {"SD004"}


def test_with_the_algorithm_it_is_audited_as_before():
    findings = _findings(f"python3 -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 "
                         f"--speculative-draft-model-path {DRAFT} --speculative-num-steps 3 "
                         "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert "SD102" not in [f.code for f in findings]
