"""PowerShell's word for the last status is ``$LASTEXITCODE`` ("the exit code of the last native
program ... that was run": about_Automatic_Variables), typed alone (PowerShell prints its value)
or echoed; its ``$?`` is only True/False. Before: a Windows user's ``ssh gpu01 'test -f ...'``
followed by ``$LASTEXITCODE`` and ``1`` had no status, and an ssh whose remote python exited 2
with no error words was no failure. Now the number is the status of the command before
it, as bash's ``echo $?`` gives (PowerShell names are case-insensitive: ``$LastExitCode``). In
bash, where the name is unset, the empty line gives no status."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LOG = """\
PS C:\\Users\\me> ssh gpu01 'test -f /models/draft/config.json'
PS C:\\Users\\me> $LASTEXITCODE
1
PS C:\\Users\\me> ssh gpu01 'python3 check_draft.py /models/draft'
checking /models/draft
PS C:\\Users\\me> echo $LastExitCode
2
PS C:\\Users\\me> ssh gpu01 nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3
PS C:\\Users\\me> $LASTEXITCODE
0
"""


def test_lastexitcode_gives_the_command_before_its_status(tmp_path: Path) -> None:
    path = tmp_path / "powershell.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.host, c.exit_code, c.is_error, c.command) for c in a.commands] == [
        # (test's 1 is an answer, "no such file", as after bash's echo $?)
        ("gpu01", 1, False, "ssh gpu01 'test -f /models/draft/config.json'"),
        (None, None, False, "$LASTEXITCODE"),
        ("gpu01", 2, True, "ssh gpu01 'python3 check_draft.py /models/draft'"),
        (None, None, False, "echo $LastExitCode"),
        ("gpu01", 0, False, "ssh gpu01 nvidia-smi -L"),
        (None, None, False, "$LASTEXITCODE"),
    ]


def test_in_bash_the_unset_name_gives_no_status(tmp_path: Path) -> None:
    path = tmp_path / "bash.log"
    path.write_text("me@gpu01:~$ python3 check_draft.py\nchecking\nme@gpu01:~$ echo $LASTEXITCODE\n\n"
                    "me@gpu01:~$ ls\n", encoding="utf-8")
    assert [(c.exit_code, c.is_error) for c in analyze_path(path).commands] == [(None, False)] * 3
