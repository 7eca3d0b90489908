"""An sgl.Engine(...) call with speculative settings and no speculative_algorithm is judged, not skipped.

A script that builds `sgl.Engine(model_path=..., speculative_draft_model_path=..., speculative_num_steps=3,
...)` and forgets `speculative_algorithm` serves without speculation: ServerArgs' speculative_algorithm
defaults to None, and only an algorithm starts a draft worker (sgl-project/sglang
python/sglang/srt/server_args.py `_handle_speculative_decoding`, PyPI wheel 0.5.10.post1). The audit
took the call for a fragment of a command (the argv it builds for the call starts
`python3 -m sglang.launch_server`, words the script does not hold), so it said only "Not checked: ...
a fragment of a command may have the algorithm above the lines given". Now it is SD102 "runs without
speculative decoding", as for the same command line, said with the call's keywords.
"""

from __future__ import annotations

from spec_debug.diagnose.steps import launch_step
from spec_debug.diagnose.steps.launch_step import WITHOUT_SPECULATION_TITLE
from spec_debug.probes.registry import ProbeContext

_SCRIPT = ('import sglang as sgl\n\n'
           'llm = sgl.Engine(model_path="meta-llama/Llama-3.1-8B-Instruct",\n'
           '                 speculative_draft_model_path="/models/sglang-EAGLE3-LLaMA3.1-Instruct-8B",\n'
           '                 speculative_num_steps=3, speculative_eagle_topk=1, speculative_num_draft_tokens=4)\n')


def _findings(text: str):
    facts = launch_step.parse({"source": "var", "cmdline": text, "models": {}})
    host_facts = dict(facts, engine={"name": "sglang", "version": "0.5.13"})
    return launch_step.check(ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts,
                                          host_facts=host_facts))


def test_the_call_is_whole_and_runs_without_speculation() -> None:
    [finding] = _findings(_SCRIPT)
    assert (finding.code, finding.severity, finding.title) == ("SD102", "warning", WITHOUT_SPECULATION_TITLE)
    assert finding.evidence[0].startswith(
        "the SGLang command sets speculative_num_steps, speculative_eagle_topk, speculative_num_draft_tokens, "
        "speculative_draft_model_path but no speculative_algorithm: ")
    assert finding.facts["fix"] == ('add speculative_algorithm="EAGLE3" (EAGLE for an EAGLE-2 draft, NEXTN for the '
                                    "target's own MTP layers)")


def test_flags_alone_are_still_a_fragment() -> None:
    # the continuation lines of a script: the algorithm may be above them
    [finding] = _findings("--speculative-draft-model-path /models/eagle3 --speculative-num-steps 3 "
                          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 4")
    assert finding.code == "SD004"
