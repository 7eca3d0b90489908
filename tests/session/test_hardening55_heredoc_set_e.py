"""A script sent to a host in a heredoc that turns on errexit (``ssh gpu02 bash <<'EOF'`` then ``set
-e``), in a terminal log with no exit status: a command of it that failed stopped it there, and
its failure is the output's last line, under that command's name (``cp: cannot stat ...``), not
under the script's last command (the launch that never ran). Before: no error and no failed
call, so the launch read as done. Recorded with bash 5.2.15 under util-linux script 2.38.1, ssh
to a real sshd (tests/sshd_fixture.py) as gpu02."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

HEREDOC = (
    b'Script started on 2026-12-05 23:12:53+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
    b"\x1b[?2004hbash-5.2# alias ssh='ssh -F /tmp/formats4-scratch/sshd6/ssh_config'\r\n"
    b'\x1b[?2004l\r'
    b"\x1b[?2004hbash-5.2# export PS1='me@laptop:~$ '\r\n"
    b'\x1b[?2004l\r'
    b"\x1b[?2004hme@laptop:~$ ssh gpu02 bash <<'EOF'\r\n"
    b'\x1b[?2004l\r'
    b'\x1b[?2004h> set -e\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?2004h> cp /models/nope/config.json /tmp/x.json\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?2004h> python3 -m sglang.launch_server --model-path /tmp/x\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?2004h> EOF\r\n'
    b'\x1b[?2004l\r'
    b"cp: cannot stat '/models/nope/config.json': No such file or directory\r\n"
    b'\x1b[?2004hme@laptop:~$ hostname\r\n'
    b'\x1b[?2004l\r'
    b'vm\r\n'
    b'\x1b[?2004hme@laptop:~$ exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 23:13:00+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_a_heredoc_script_stopped_by_set_e_is_a_failed_call(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(HEREDOC)
    doc = analyze_path(path).to_json()
    got = [(c["host"], c["is_error"]) for c in doc["commands"] if c["command"].startswith("ssh gpu02 bash")]
    assert got == [("gpu02", True)]
    assert [(e["message"], e["host"]) for e in doc["errors"]] == [
        ("cp: cannot stat '/models/nope/config.json': No such file or directory", "gpu02")]


def test_without_errexit_the_script_went_on(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(HEREDOC.replace(b"> set -e\r\n", b"> set -x\r\n"))
    doc = analyze_path(path).to_json()
    assert doc["errors"] == []
