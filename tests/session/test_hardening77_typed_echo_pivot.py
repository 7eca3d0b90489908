"""A failure ``echo $?`` reports starts a change of approach, as a failure a prompt's status shows.

A benchmark run with its output sent to a file prints nothing; the engineer types ``echo $?``,
sees 1, and turns to the GPUs (``nvidia-smi``). Before, the echoed status made the run a failed
call with an error, but no pivot: the analysis said nothing of the turn that a ``[1]
root@gpu01:~#`` prompt before the same ``nvidia-smi`` gave. Now the echoed failure prompts the
same pivot, from the failed run; an echoed 0 prompts none. The typescript is bash 5.2 recorded
with util-linux script 2.38, as test_hardening76_typed_echo_error's."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path


def _typescript(status: str) -> bytes:
    return (
        b'Script started on 2026-12-07 20:17:26+00:00 [COMMAND="bash --norc --noprofile -i < cmds.txt" '
        b'<not executed on terminal>]\n'
        b"bash-5.2# export PS1='root@gpu01:~# '\r\n"
        b"root@gpu01:~# python3 bench.py --port 30000 --num-prompts 64 > bench.log 2>&1\r\n"
        b"root@gpu01:~# echo $?\r\n" + status.encode() + b"\r\n"
        b"root@gpu01:~# nvidia-smi --query-gpu=memory.used --format=csv\r\n"
        b"memory.used [MiB]\r\n80123 MiB\r\n"
        b"root@gpu01:~# exit\r\nexit\r\n\n"
        b'Script done on 2026-12-07 20:17:27+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_an_echoed_failure_then_a_turn_to_the_gpus_is_a_pivot(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(_typescript("1"))
    doc = analyze_path(path).to_json()
    commands = {c["seq"]: c["command"] for c in doc["commands"]}
    assert [(commands[p["seq"]], commands[p["trigger_seq"]], p["from_category"], p["to_category"], p["summary"])
            for p in doc["pivots"]] == [(
                "nvidia-smi --query-gpu=memory.used --format=csv",
                "python3 bench.py --port 30000 --num-prompts 64 > bench.log 2>&1", "benchmark", "gpu_status",
                f"After exit_code: exit code 1 [msg {doc['pivots'][0]['trigger_seq']}], moved from benchmarking "
                "to checking the gpus: nvidia-smi --query-gpu=memory.used --format=csv")]


def test_an_echoed_success_is_no_pivot(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(_typescript("0"))
    doc = analyze_path(path).to_json()
    assert doc["pivots"] == [] and doc["errors"] == []
