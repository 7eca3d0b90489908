"""``kubectl exec`` ends a command that exited non-zero in the pod with ``command terminated with
exit code 137`` (kubernetes/client-go ``tools/remotecommand``, the v4 protocol's
``NonZeroExitCode`` status; kubectl prints it and exits with it). A terminal log of a benchmark
OOM-killed in its pod read as a benchmark that ran, and a chat agent's call the same: no exit
code, no error. The line gives the command's exit code now, as the last line of its output."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

BENCH = "kubectl exec -it sglang-0 -- python3 -m sglang.bench_one_batch --model-path /m --speculative-algorithm EAGLE3"


def test_a_terminal_log_reads_the_pods_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "k8s.log"
    path.write_text(f"me@laptop:~$ {BENCH}\nLoading safetensors checkpoint shards: 100%\n"
                    "command terminated with exit code 137\n"
                    "me@laptop:~$ kubectl exec sglang-0 -- cat /tmp/notes.txt\n"
                    "we saw 'command terminated with exit code 1' yesterday\n")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        (BENCH, 137, True),
        # quoted inside a line of the output: no status
        ("kubectl exec sglang-0 -- cat /tmp/notes.txt", None, False),
    ]
    assert [(e.kind, e.seq) for e in a.errors] == [("signal", 0)]


def test_a_chat_tool_message_reads_the_pods_exit_code(tmp_path: Path) -> None:
    path = tmp_path / "chat.json"
    path.write_text(json.dumps([
        {"role": "user", "content": "run the benchmark in the pod"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "bash", "arguments": json.dumps({"command": BENCH})}}]},
        {"role": "tool", "tool_call_id": "c1",
         "content": "Loading safetensors checkpoint shards: 100%\ncommand terminated with exit code 137\n"},
    ]))
    [bench] = analyze_path(path).commands
    assert (bench.exit_code, bench.is_error) == (137, True)
