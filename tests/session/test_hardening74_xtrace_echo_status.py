"""``echo $?`` typed in a terminal after ``set -x``.

bash's xtrace writes each command as it runs, after PS4 ("+ " by default, "++ " one level down:
bash(1), PS4), into the terminal: ``echo $?`` prints "+ echo 1" and then "1", and a
PROMPT_COMMAND (Ubuntu's ``__vte_prompt_command``) adds its own "++ ..." lines before the next
prompt. Before: the echo's output was not the number alone, so the failed command before it had
no status (``python3 bench.py`` None). Now the trace lines are left out when the number is read."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.status_echo import typed_echo_status

_LOG = """\
root@gpu01:~# set -x
root@gpu01:~# python3 bench.py --port 30000
+ python3 bench.py --port 30000
Traceback (most recent call last):
  File "/w/bench.py", line 3, in <module>
ConnectionRefusedError: [Errno 111] Connection refused
++ __vte_prompt_command
++ printf '\\033]7;file://%s%s\\033\\\\' gpu01 /root
root@gpu01:~# echo $?
+ echo 1
1
++ __vte_prompt_command
++ printf '\\033]7;file://%s%s\\033\\\\' gpu01 /root
root@gpu01:~# ls
+ ls --color=auto
bench.py
root@gpu01:~# 
"""


def test_the_traced_echo_gives_the_status(tmp_path: Path) -> None:
    path = tmp_path / "term.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("set -x", None, False), ("python3 bench.py --port 30000", 1, True), ("echo $?", None, False),
        ("ls", None, False)]


def test_the_number_alone_is_read_as_before() -> None:
    assert typed_echo_status("echo $?", "+ echo 0\n0\n") == 0
    assert typed_echo_status("echo $?", "2\n") == 2
    assert typed_echo_status("echo $?", "+ echo\n\n") is None
    assert typed_echo_status('echo "rc=$?"', "+ echo rc=3\nrc=3\n++ __vte_prompt_command\n") == 3
