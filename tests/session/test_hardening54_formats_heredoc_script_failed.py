"""A script sent to a host in a heredoc (``ssh gpu01 <<EOF``, its lines typed at bash's ``> ``
prompt), whose last command failed, in a terminal log that records no exit status: ssh exits
with the script's status, its last command's (ssh(1): "exits with the exit status of the
remote command"), and that command said it failed on the output's last line. With one program
per command only, the failure was read for a command that ran one program, so the script's
call was no failure and its "No such file or directory" no error. Recorded with bash 5.2 under
util-linux ``script -q`` in tmux, ssh to a real sshd (tests/sshd_fixture.py) as gpu01."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_ON, _OFF = "\x1b[?2004h", "\x1b[?2004l"  # bash 5.2's bracketed paste around each prompt


def _heredoc(lines: list[str], output: list[str]) -> str:
    typed = f"{_ON}eng@laptop:~$ ssh -F sshcfg gpu01 <<EOF\r\n{_OFF}\r"
    typed += "".join(f"{_ON}> {line}\r\n{_OFF}\r" for line in [*lines, "EOF"])
    said = "Pseudo-terminal will not be allocated because stdin is not a terminal.\r\r\n"
    return typed + said + "".join(f"{line}\r\n" for line in output)


_TYPESCRIPT = (
    'Script started on 2026-12-05 21:02:08+00:00 [COMMAND="bash --rcfile rc2 -i" TERM="tmux-256color" '
    'TTY="/dev/pts/0" COLUMNS="100" LINES="40"]\r\n'
    + _heredoc(["hostname", "ls /nonexistent"],
               ["vm", "ls: cannot access '/nonexistent': No such file or directory"])
    # the failure not last: the script went on, and its status is hostname's
    + _heredoc(["ls /nonexistent", "hostname"],
               ["ls: cannot access '/nonexistent': No such file or directory", "vm"])
    + f"{_ON}eng@laptop:~$ exit\r\n{_OFF}\rexit\r\n\r\n"
    'Script done on 2026-12-05 21:02:20+00:00 [COMMAND_EXIT_CODE="0"]\r\n')


def test_a_heredoc_script_whose_last_command_failed_is_a_failed_call(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(_TYPESCRIPT.encode())
    a = analyze_path(path)
    assert [(c.host, c.inner, c.is_error) for c in a.commands] == [
        (None, "bash --rcfile rc2 -i", False),
        ("gpu01", "hostname\nls /nonexistent", True),
        ("gpu01", "ls /nonexistent\nhostname", False),
        ("laptop", "exit", False)]
    assert [(e.seq, e.kind, e.host, e.message) for e in a.errors] == [
        (a.commands[1].result_seq, "tool_error", "gpu01", "ls: cannot access '/nonexistent': No such file or directory")]
    assert a.agents[0]["failed_calls"] == 1
