"""`--speculative-draft X` when the SGLang release is not known (session 12).

SGLang's own EAGLE commands (sgl-project/sglang PR #4716, SafeAILab/EAGLE PR #173) abbreviate the
draft flag: releases before 0.5.2 read it, 0.5.2 and later exit with "ambiguous option". With no
release known, the audit titled it "The engine refuses this launch command at startup" and told the
user the server stops on it, though a server running it is an older release that started fine.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

# SafeAILab/EAGLE PR #173 (SGLang's EAGLE numbers in the EAGLE README)
SGLANG_EAGLE_PR173 = ("python3 -m sglang.launch_server --model meta-llama/Llama-2-7b-chat-hf  --speculative-algo EAGLE "
                      "--speculative-draft lmzheng/sglang-EAGLE-llama2-chat-7B --speculative-num-steps 5 "
                      "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64 --mem-fraction 0.7")


def _findings(command: str, version: str | None):
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    host = {**facts, **({"engine": {"name": "sglang", "version": version}} if version else {})}
    return launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=host))


def test_unknown_release_says_only_newer_releases_refuse_it():
    [finding] = _findings(SGLANG_EAGLE_PR173, None)
    assert finding.code == "SD102"
    assert finding.title == "The engine refuses this launch command at startup on its newer releases"
    assert "release is unknown here" in finding.evidence[0]
    assert "stops at startup" not in finding.remediation


def test_a_known_newer_release_still_refuses_it_outright():
    [finding] = _findings(SGLANG_EAGLE_PR173, "0.5.4")
    assert finding.title == "The engine refuses this launch command at startup"
    assert "release is unknown here" not in finding.evidence[0]


def test_a_known_older_release_reads_it():
    assert _findings(SGLANG_EAGLE_PR173, "0.5.1") == []
