"""A terminal with shell integration marks where each command ends, with its exit status:
FinalTerm's ``ESC ] 133 ; D ; <status> BEL`` (kitty's, WezTerm's, iTerm2's, Ghostty's shell
integration, fish 4; zellij's docs, "Shell Integration (OSC 133)") and VS Code's ``ESC ] 633 ; D ;
<status>`` (microsoft/vscode shellIntegration-bash.sh, ``__vsc_command_complete``). A typescript
taken there holds the marks; the analyzer dropped them with the other escapes, so a command that
printed nothing and exited 3 (``python3 -c "import sys; sys.exit(3)"``) read as no failure and no
status. The mark before the next prompt now gives the command its status. Not an ``exit``'s: the
mark after it is the outer shell's, for the command that opened the shell left.

The logs are real recordings: bash 5.2 under util-linux script 2.38.1, with PROMPT_COMMAND, PS0
and PS1 writing the marks as the integrations do (133 ending in BEL, 633 in ST)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FINALTERM = (
    b'Script started on 2026-12-07 07:18:59+00:00 [COMMAND="bash --rcfile /tmp/textlogs11-scratch/rc133.sh -i" <not executed on terminal>]\n'
    b'ls /nonexistent-dir\r\n'
    b'echo ok\r\n'
    b'python3 -c "import sys; sys.exit(3)"\r\n'
    b'true\r\n'
    b'exit\r\n'
    b'\x1b]133;D;0\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07ls /nonexistent-dir\r\n'
    b'\x1b[?2004l\r'
    b"\x1b]133;C\x07ls: cannot access '/nonexistent-dir': No such file or directory\r\n"
    b'\x1b]133;D;2\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07\x1b[Kecho ok\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07ok\r\n'
    b'\x1b]133;D;0\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07python3 -c "import sys; sys.exit(3)"\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07\x1b]133;D;3\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07\x1b[Ktrue\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07\x1b]133;D;0\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07exit\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:18:59+00:00 [COMMAND_EXIT_CODE="0"]\n')

NESTED = (
    b'Script started on 2026-12-07 07:20:29+00:00 [COMMAND="bash --rcfile /tmp/textlogs11-scratch/rc133.sh -i" <not executed on terminal>]\n'
    b'PS1="$ " bash --norc -i\r\n'
    b'false\r\n'
    b'exit\r\n'
    b'sh -c "exit 4"\r\n'
    b'exit\r\n'
    b'\x1b]133;D;0\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07PS1="$ " bash --norc -i\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07\x1b[?2004h$ false\r\n'
    b'\x1b[?2004l\r'
    b'\x1b[?2004h$ exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\x1b]133;D;1\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07\x1b[Ksh -c "exit 4"\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07\x1b]133;D;4\x07\x1b[?2004h\x1b]133;A\x07root@vm:~# \x1b]133;B\x07exit\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]133;C\x07exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:20:29+00:00 [COMMAND_EXIT_CODE="4"]\n')

VSCODE = (
    b'Script started on 2026-12-07 07:20:43+00:00 [COMMAND="bash --rcfile /tmp/textlogs11-scratch/rc633.sh -i" <not executed on terminal>]\n'
    b'python3 -c "import sys; sys.exit(3)"\r\n'
    b'echo ok\r\n'
    b'exit\r\n'
    b'\x1b]633;D;0\x1b\\\x1b[?2004h\x1b]633;A\x1b\\root@vm:~# \x1b]633;B\x1b\\python3 -c "import sys; sys.exit(3)"\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]633;C\x1b\\\x1b]633;D;3\x1b\\\x1b[?2004h\x1b]633;A\x1b\\root@vm:~# \x1b]633;B\x1b\\\x1b[Kecho ok\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]633;C\x1b\\ok\r\n'
    b'\x1b]633;D;0\x1b\\\x1b[?2004h\x1b]633;A\x1b\\root@vm:~# \x1b]633;B\x1b\\exit\r\n'
    b'\x1b[?2004l\r'
    b'\x1b]633;C\x1b\\exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:20:44+00:00 [COMMAND_EXIT_CODE="0"]\n')


def _statuses(tmp_path: Path, data: bytes) -> list[tuple[str, int | None, bool]]:
    path = tmp_path / "session.log"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]]


def test_the_marks_give_each_command_its_status(tmp_path: Path) -> None:
    assert _statuses(tmp_path, FINALTERM)[1:] == [
        ("ls /nonexistent-dir", 2, True), ("echo ok", 0, False),
        ('python3 -c "import sys; sys.exit(3)"', 3, True), ("true", 0, False), ("exit", None, False)]


def test_vs_codes_marks_too(tmp_path: Path) -> None:
    assert _statuses(tmp_path, VSCODE)[1:] == [
        ('python3 -c "import sys; sys.exit(3)"', 3, True), ("echo ok", 0, False), ("exit", None, False)]


def test_the_mark_after_a_nested_shells_exit_is_not_the_exits(tmp_path: Path) -> None:
    # the inner bash writes no marks: its `false` has none; the outer shell's mark after the
    # inner `exit` (1: the status of its last command) is no failure of that `exit`
    assert _statuses(tmp_path, NESTED)[1:] == [
        ('PS1="$ " bash --norc -i', None, False), ("false", None, False), ("exit", None, False),
        ('sh -c "exit 4"', 4, True), ("exit", None, False)]
