"""A session's launch with a draft-token budget SGLang rewrites or its tree cannot hold is SD102.
Analyzing a session gave SD101 and SD103 from launch flags, never SD102: `launch_server
--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 8` (SGLang
overwrites the 8 with steps + 1 = 4) gave no finding, where `spec-debug diagnose` of the same
command gives SD102. The judgment is the launch audit's own (check_draft_budget)."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.spec_facts import launch_observations

_LAUNCH = ("python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
           "--speculative-draft-model-path /models/eagle3 {} --port 30000")
_OVERWRITTEN = ("--speculative-num-draft-tokens 8 is overwritten to 4 (steps + 1) because topk is 1 "
                "(SGLang server_args.py, with a log warning)")


def _session(path: Path, flags: str) -> Path:
    lines = []

    def add(kind: str, content: list | str) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    add("user", "EAGLE-3 on gpu01 accepts almost nothing, please look.")
    add("assistant", [{"type": "tool_use", "id": "t1", "name": "Bash",
                       "input": {"command": f"ssh ubuntu@gpu01 'nohup {_LAUNCH.format(flags)} > /tmp/s.log 2>&1 &'"}}])
    add("user", [{"type": "tool_result", "tool_use_id": "t1", "content": "", "is_error": False}])
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def test_a_budget_sglang_overwrites_is_sd102(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path / "s.jsonl", "--speculative-num-steps 3 --speculative-eagle-topk 1 "
                                                     "--speculative-num-draft-tokens 8"))
    assert [(f.code, f.severity, f.seq, f.host, f.evidence) for f in a.findings] == [
        ("SD102", "warning", 1, "gpu01", [f"[msg 1] {_OVERWRITTEN}"])]
    # distill audits the launch as it does for SD101 and SD103
    steps = distill_playbook(a)["steps"]
    assert [s["id"] for s in steps if s.get("probe") == "launch_flags"] == ["launch_flags"]


def test_a_budget_the_tree_cannot_hold_is_sd102(tmp_path: Path) -> None:
    a = analyze_path(_session(tmp_path / "s.jsonl", "--speculative-num-steps 2 --speculative-eagle-topk 2 "
                                                     "--speculative-num-draft-tokens 16"))
    # SGLang's tree selection asks torch.topk for 15 of 6 scores at the draft CUDA-graph capture:
    # the server crashes at startup (hardening74: was a warning without the crash)
    assert [(f.code, f.severity, f.evidence) for f in a.findings] == [
        ("SD102", "error", ["[msg 1] 16 draft tokens need 15 tree nodes but steps=2, topk=2 offer only 6 "
                            "(topk + (steps-1)*topk^2): SGLang crashes at startup, capturing the draft CUDA graph "
                            "(torch.topk in its tree selection (organize_draft_results) asks for 15 of 6 candidates: "
                            "\"RuntimeError: selected index k out of range\"; use --speculative-num-draft-tokens 7 or "
                            "fewer, or more steps or a larger topk)"])]


def test_a_consistent_or_unwritten_budget_is_no_finding(tmp_path: Path) -> None:
    for flags in ("--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4",
                  "--speculative-num-steps 5 --speculative-eagle-topk 4 --speculative-num-draft-tokens 8",
                  # SGLang sets the unwritten budget to steps + 1 itself: nothing written is overridden
                  "--speculative-num-steps 3 --speculative-eagle-topk 1"):
        assert analyze_path(_session(tmp_path / "s.jsonl", flags)).findings == [], flags


def test_a_running_servers_own_args_are_no_budget_written() -> None:
    # GET /get_server_info gives the args after SGLang rewrote them: nothing there is overwritten
    info = ('{"speculative_algorithm": "EAGLE3", "speculative_num_steps": 3, "speculative_eagle_topk": 1, '
            '"speculative_num_draft_tokens": 8, "model_path": "meta-llama/Llama-3.1-8B-Instruct"}')
    assert launch_observations(info) == []
    log = ("[2026-11-20 10:00:00] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct', "
           "speculative_algorithm='EAGLE3', speculative_num_steps=3, speculative_eagle_topk=1, "
           "speculative_num_draft_tokens=8)\n")
    assert launch_observations(log) == []
