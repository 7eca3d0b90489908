"""Errors a command shows from a server's log, in a terminal log (no exit status recorded).

``grep -n "Traceback\\|Error" server.log`` puts each line's number before it, different on every
line: the traceback's header (``1022:Traceback ...``) and its exception line (``1031:RuntimeError:
CUDA error: an illegal memory access ...``) were read as a traceback cut before its exception
("traceback without an exception line"), the CUDA error lost. And a command that only read the
log (grep, tail, cat, journalctl, docker logs) was a failed call because the log held the
server's errors; a tool that records statuses says 0 for it."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

GREPPED = ("1022:Traceback (most recent call last):\n"
           "1031:RuntimeError: CUDA error: an illegal memory access was encountered\n")


def _analysed(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "terminal.log"
    path.write_text(text)
    return analyze_path(path).to_json()


def test_a_traceback_grep_numbered_is_read_with_its_exception() -> None:
    assert [(e.kind, e.exception, e.message) for e in extract_errors(GREPPED, None, status_known=False)] == [
        ("cuda_error", "RuntimeError", "CUDA error: an illegal memory access was encountered")]
    # with the file's name (grep -Hn, several files) and the frames of -A context lines ("-")
    named = ("logs/sglang.log:1022:Traceback (most recent call last):\n"
             'logs/sglang.log-1023-  File "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", line 88, in forward\n'
             "logs/sglang.log-1024-    logits = self.draft_model(hidden)\n"
             "logs/sglang.log:1025:ValueError: draft hidden size 21504 does not match fc input 14336\n")
    assert [(e.exception, e.message, e.file, e.line) for e in extract_errors(named, None, status_known=False)] == [
        ("ValueError", "draft hidden size 21504 does not match fc input 14336",
         "/opt/sglang/python/sglang/srt/speculative/eagle_worker.py", 88)]


def test_numbers_that_are_no_grep_prefix_leave_a_traceback_as_it_was() -> None:
    # a rank's name before the header only: no number on the next line, the frames read as usual
    text = ("rank1:Traceback (most recent call last):\n"
            '  File "/x/train.py", line 3, in <module>\n'
            "KeyError: 'd2t'\n")
    assert [(e.exception, e.file, e.line) for e in extract_errors(text, None, status_known=False)] == [
        ("KeyError", "/x/train.py", 3)]


def test_reading_a_log_that_holds_the_servers_errors_is_no_failed_call(tmp_path: Path) -> None:
    doc = _analysed(tmp_path, "root@gpu01:~# grep -n \"Traceback\\|Error\" /var/log/sglang.log | tail -3\n" + GREPPED
                    + "root@gpu01:~# tail -n 2 /var/log/sglang.log\n"
                    + "[2026-03-02 10:00:05 TP0] Scheduler hit an exception: torch.OutOfMemoryError: CUDA out of memory. "
                      "Tried to allocate 2.00 GiB\n[2026-03-02 10:00:05] Received sigquit from a child process. It usually means the child failed.\n"
                    + "root@gpu01:~# tail -n 5 /var/log/missing.log\n"
                    + "tail: cannot open '/var/log/missing.log' for reading: No such file or directory\n"
                    + "root@gpu01:~# python3 launch.py\nTraceback (most recent call last):\n"
                    + '  File "/root/launch.py", line 2, in <module>\nRuntimeError: CUDA error: out of memory\n')
    assert [(c["command"], c["category"], c["is_error"]) for c in doc["commands"]] == [
        ('grep -n "Traceback\\|Error" /var/log/sglang.log | tail -3', "logs", False),
        ("tail -n 2 /var/log/sglang.log", "logs", False),
        ("tail -n 5 /var/log/missing.log", "logs", True),  # the reading's own failure
        ("python3 launch.py", "python", True),
    ]
    by_command = {c["seq"]: c["command"] for c in doc["commands"]}
    assert [(by_command[e["command_seq"]], e["kind"], e["host"]) for e in doc["errors"]] == [
        ('grep -n "Traceback\\|Error" /var/log/sglang.log | tail -3', "cuda_error", "gpu01"),
        ("tail -n 2 /var/log/sglang.log", "cuda_oom", "gpu01"),
        ("tail -n 5 /var/log/missing.log", "tool_error", "gpu01"),
        ("python3 launch.py", "cuda_oom", "gpu01"),
    ]
    (main,) = doc["agents"]
    assert main["failed_calls"] == 2
