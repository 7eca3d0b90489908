"""A draft-token budget beyond SGLang's draft tree is an error naming the crash, not a warning.

`--speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 10` asks
for 9 tree nodes of the 6 the tree drafts. SGLang checks nothing there (sgl-project/sglang
python/sglang/srt/arg_groups/speculative_hook.py `_handle_eagle_family` at 004c82e): its
`EAGLEWorker.draft_forward` (speculative/eagle_worker.py) ends with `organize_draft_results`
(eagle_utils.py), `torch.topk(score_list, num_draft_tokens - 1)` over 6 scores, which raises
"RuntimeError: selected index k out of range" while the draft CUDA graph is captured
(eagle_draft_cuda_graph_runner.py `run_once`), or at the startup warmup's first decode when no
draft graph is captured. Before, the audit said "offer only 6" as SD102's catalog warning: a
`spec-debug run` passed with 1 warning on a server that never serves. Now it is an error that
names where SGLang crashes and the budget that fits.
"""

from __future__ import annotations

from spec_debug.diagnose.checks.launch_flags import check_draft_budget
from spec_debug.diagnose.launch import effective_spec, parse_launch_command
from spec_debug.diagnose.steps import launch_step
from spec_debug.probes.registry import ProbeContext

SGL = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
       "--speculative-draft-model-path lmsys/sglang-EAGLE3-LLaMA3.1-Instruct-8B ")
_NEED = "10 draft tokens need 9 tree nodes but steps=2, topk=2 offer only 6 (topk + (steps-1)*topk^2): "
_CRASH = ("torch.topk in its tree selection (organize_draft_results) asks for 9 of 6 candidates: "
          "\"RuntimeError: selected index k out of range\"; use --speculative-num-draft-tokens 7 or fewer, "
          "or more steps or a larger topk)")


def _budget(command: str) -> list[tuple[str, str, list[str]]]:
    cfg = parse_launch_command(command)
    return [(f.severity, f.title, f.evidence) for f in check_draft_budget(cfg, effective_spec(cfg))]


def test_a_budget_beyond_the_tree_crashes_at_the_graph_capture() -> None:
    assert _budget(SGL + "--speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 10") == [
        ("error", "Draft-token budget inconsistent with steps and topk",
         [_NEED + "SGLang crashes at startup, capturing the draft CUDA graph (" + _CRASH])]


def test_without_draft_graphs_the_warmup_request_crashes_it() -> None:
    assert _budget(SGL + "--speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 10 "
                         "--disable-cuda-graph") == [
        ("error", "Draft-token budget inconsistent with steps and topk",
         [_NEED + "SGLang crashes at startup, at its warmup request's first decode (" + _CRASH])]
    # one step captures no draft graph (eagle_worker.py init_cuda_graphs: steps > 1) and without
    # the warmup the first request's decode crashes it
    assert _budget(SGL + "--speculative-num-steps 1 --speculative-eagle-topk 4 --speculative-num-draft-tokens 6 "
                         "--skip-server-warmup") == [
        ("error", "Draft-token budget inconsistent with steps and topk",
         ["6 draft tokens need 5 tree nodes but steps=1, topk=4 offer only 4 (topk + (steps-1)*topk^2): SGLang "
          "crashes at the first decode and serves no request (torch.topk in its tree selection "
          "(organize_draft_results) asks for 5 of 4 candidates: \"RuntimeError: selected index k out of range\"; "
          "use --speculative-num-draft-tokens 5 or fewer, or more steps or a larger topk)"])]


def test_a_budget_the_tree_holds_is_no_finding() -> None:
    # 7 tokens: the 6 nodes and the root, the most steps 2 / topk 2 can verify
    assert _budget(SGL + "--speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 7") == []


def test_the_launch_audit_fails_the_run() -> None:
    command = SGL + "--speculative-num-steps 2 --speculative-eagle-topk 2 --speculative-num-draft-tokens 10"
    facts = launch_step.parse({"source": "var", "cmdline": command, "models": {}})
    ctx = ProbeContext(step_id="launch", host="gpu01", args={}, facts=facts, host_facts=facts)
    assert [(f.code, f.severity) for f in launch_step.check(ctx)] == [("SD102", "error")]
