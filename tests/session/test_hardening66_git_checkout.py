"""`git checkout` without `--`: `git checkout v0.4.5` in an engine's checkout (switching the source
an editable install serves) and `git checkout spec.yaml` (restoring a file, git-checkout(1)'s
`git checkout [<tree-ish>] [--] <pathspec>...`) were neither a change nor a rollback: the
postmortem's Resolution credited the relaunch after them alone."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from spec_debug.session.reverts import rolls_back, switches_source

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Output token throughput (tok/s):         {}\n==================================================")
_LAUNCH = ("ssh gpu01 'nohup python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
           "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 --port 30000 > /tmp/s.log 2>&1 &'")
_BENCH_CMD = "ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100'"


def _resolution(tmp_path: Path, change: str) -> list[str]:
    lines: list[dict] = []

    def add(kind: str, content: list | str) -> None:
        n = len(lines) + 1
        lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                      "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                      "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    def bash(command: str, output: str = "") -> None:
        tid = f"toolu_{len(lines)}"
        add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}])

    add("user", "EAGLE-3 on gpu01 is slow")
    bash(_BENCH_CMD, _BENCH.format("60.5"))
    bash(change)
    bash(_LAUNCH)
    bash(_BENCH_CMD, _BENCH.format("120.3"))
    path = tmp_path / "s.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return postmortem_view(analyze_path(path))["resolution"]


def test_a_checkout_of_a_tag_or_a_file_is_the_change_before_the_rise(tmp_path: Path) -> None:
    for change in ("cd /opt/sglang && git checkout v0.4.5", "cd /etc/sglang && sudo git checkout spec.yaml"):
        assert _resolution(tmp_path, f"ssh gpu01 '{change}'") == [
            f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] after `{change}` [msg 3], relaunching the "
            "server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3` [msg 5]."], change


def test_what_a_checkout_does() -> None:
    cases = {  # command: (rolls back, switches the source)
        "cd /opt/sglang && git checkout v0.4.5": (False, True),
        "git switch main": (False, True),
        "git -C /opt/sglang checkout 3f2a9c1": (False, True),
        "git checkout -b fix origin/v0.4.5": (False, True),
        "git checkout -": (False, True),
        "git checkout spec.yaml": (True, False),
        "git checkout HEAD~1 configs/eagle3.yaml": (True, False),
        "git checkout .": (True, False),
        "git checkout -- spec.yaml": (True, False),
        "git checkout -b fix": (False, False),
        "git switch -c fix": (False, False),
        "git log --oneline -3": (False, False),
    }
    for command, (back, switch) in cases.items():
        assert (rolls_back(command), switches_source(command)) == (back, switch), command
