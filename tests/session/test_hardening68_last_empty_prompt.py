"""A terminal log copied with its last row, the prompt waiting with nothing typed at it
(``user@laptop:~$ ``): that row was read as the last line of the last command's output, so what
only the output's last line says was lost: ``kubectl exec``'s ``command terminated with exit code
137`` (the status of the command in the pod, kubernetes/client-go ``tools/remotecommand``) and a
traced script's ``+ exit 1`` gave no exit code, as the same log with one more command after it
did. Now the status is read above such a prompt."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path

KUBECTL = """\
user@laptop:~$ kubectl exec -it sglang-0 -- python3 -m sglang.bench_serving --backend sglang
Traceback (most recent call last):
MemoryError
command terminated with exit code 137
"""
TRACED = """\
(sglang) root@gpu01:~/work# bash -x run_eagle.sh
+ '[' '!' -d /ckpt/eagle3 ']'
+ echo 'ERROR: draft checkpoint /ckpt/eagle3 not found'
ERROR: draft checkpoint /ckpt/eagle3 not found
+ exit 1
"""


@pytest.mark.parametrize(("log", "last", "code"), [
    (KUBECTL, "user@laptop:~$ ", 137),
    (KUBECTL, "user@laptop:~$", 137),
    (TRACED, "(sglang) root@gpu01:~/work# ", 1),
])
def test_the_status_above_the_last_empty_prompt(tmp_path: Path, log: str, last: str, code: int) -> None:
    path = tmp_path / "terminal.log"
    path.write_text(log + last + "\n")
    [call] = analyze_path(path).commands
    assert (call.exit_code, call.is_error) == (code, True)


def test_a_line_of_output_that_ends_the_log_is_still_read(tmp_path: Path) -> None:
    path = tmp_path / "terminal.log"
    path.write_text(KUBECTL.replace("command terminated with exit code 137\n", "echo $\n"))
    [call] = analyze_path(path).commands
    assert call.exit_code is None
