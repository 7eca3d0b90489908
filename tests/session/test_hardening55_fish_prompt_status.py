"""fish's default prompt shows the status of a command that failed in brackets before its
``#``/``>`` (``root@vm /t/f/rec [2]# ``, ``[SIGINT]`` after Ctrl-C, ``[0|1]`` for a pipeline), and
the git branch in a repository (``root@vm ~/sglang (main)# ``): fish 3.6.0
``share/functions/fish_prompt.fish`` and ``__fish_print_pipestatus.fish``. Before: such a prompt
was no prompt, so every command typed after one that failed (or in a repository) was lost in the
output of the one before. Now each is a command, with the status its next prompt shows. The
typescripts are fish 3.6.0 sessions (``fish -N -i``) recorded with util-linux script 2.38.1, the
keys typed through a pty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

AFTER_FAILURES = (
    b'Script started on 2026-12-05 22:49:58+00:00 [COMMAND="fish -N -i" TERM="xterm" TTY="/dev/p'
    b'ts/0" COLUMNS="-1" LINES="-1"]\n'
    b'\x1b]0;/t/f/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ctail \r\x1b[23C-f '
    b'\r\x1b[26Cserver.log\r\x1b[36C\x1b[18Dtail -f server.log\r\x1b[36C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;tail -f server.log /t/f/rec\x07\x1b[30m\x1b(B\x1b[m\rINFO server started\r\n'
    b'^C\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                           '
    b'    \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m['
    b"\x1b[1m\x1b[31mSIGINT\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[27Cpython3 \r\x1b[35C-c \r\x1b[38C'import \r\x1b[46Ctim"
    b"e;\r\x1b[51C \r\x1b[52Ctime.sleep(30)\r\x1b[66C'\r\x1b[67C\x1b[40Dpython3 -c 'import time; time.sleep(30)'\r\x1b["
    b'67C\r\n'
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import t /t/f/rec\x07\x1b[30m\x1b(B\x1b[m\r^CTraceback (most recent call las"
    b't):\r\n'
    b'  File "<string>", line 1, in <module>\r\n'
    b'KeyboardInterrupt\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                             '
    b'  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b['
    b'1m\x1b[31mSIGINT\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[27Cecho \r\x1b[32C$status\r\x1b[39C\x1b[12Decho $status\r'
    b'\x1b[39C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo $status /t/f/rec\x07\x1b[30m\x1b(B\x1b[m\r130\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                             '
    b'  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cls \r'
    b'\x1b[21C/nope\r\x1b[26C\x08\x08\x08\x08\x08\x08\x08\x08ls /nope\r\x1b[26C\r\n'
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;ls /nope /t/f/rec\x07\x1b[30m\x1b(B\x1b[m\rls: cannot access '/nope': No such file or di"
    b'rectory\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                             '
    b'  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b['
    b'1m\x1b[31m2\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[22Cexit\r\x1b[26C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/f/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n'
    b'Script done on 2026-12-05 22:50:04+00:00 [COMMAND_EXIT_CODE="2"]\n')

IN_A_REPOSITORY = (
    b'Script started on 2026-12-05 22:51:38+00:00 [COMMAND="fish -N -i" TERM="xterm" TTY="/dev/p'
    b'ts/0" COLUMNS="-1" LINES="-1"]\n'
    b'\x1b]0;/t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/r/sglang\x1b(B\x1b[m (main)\x1b(B\x1b[m# \x1b[K\r\x1b['
    b'30Cfalse \r\x1b[36C|\r\x1b[37C \r\x1b[38Ctrue\r\x1b[42C\x1b[12Dfalse | true\r\x1b[42C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;false | true /t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                       '
    b'                                                        \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/r/sglang\x07\x1b[30m\x1b('
    b'B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/r/sglang\x1b(B\x1b[m (main)\x1b(B\x1b[m# \x1b[K\r\x1b[30Ctrue \r\x1b[35C|\r\x1b[36C \r\x1b[3'
    b'7Cfalse\r\x1b[42C\x1b[12Dtrue | false\r\x1b[42C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;true | false /t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                       '
    b'                                                        \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/r/sglang\x07\x1b[30m\x1b('
    b'B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/r/sglang\x1b(B\x1b[m (main)\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m0\x1b[31m|\x1b[1m\x1b'
    b'[31m1\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[36Chostname\r\x1b[44C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;hostname /t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\rvm\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                             '
    b'  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/r/sglang\x1b(B\x1b[m (main)\x1b(B\x1b'
    b"[m# \x1b[K\r\x1b[30Csh \r\x1b[33C-c \r\x1b[36C'kill \r\x1b[42C-TERM \r\x1b[48C$$'\r\x1b[51C\x1b[21Dsh -c 'kill -TERM $$'"
    b'\r\x1b[51C\r\n'
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;sh -c 'kill -TERM $$ /t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\rfish: Job 1, 'sh -c 'kill -T"
    b"ERM $$'' terminated by signal SIGTERM (Polite quit request)\r\n"
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                             '
    b'  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/r/sglang\x1b(B\x1b[m (main)\x1b(B\x1b'
    b'[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31mSIGTERM\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[40Chostname\r\x1b[48C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;hostname /t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\rvm\r\n'
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                             '
    b'  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/f/r/sglang\x1b(B\x1b[m (main)\x1b(B\x1b'
    b'[m# \x1b[K\r\x1b[30Cexit\r\x1b[34C\r\n'
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/f/r/sglang\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n'
    b'Script done on 2026-12-05 22:51:43+00:00 [COMMAND_EXIT_CODE="0"]\n')


def _commands(tmp_path: Path, data: bytes) -> list[tuple]:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    return [(c["command"], c["exit_code"]) for c in doc["commands"] if c["command"] != "fish -N -i"]


def test_commands_after_a_failed_one_are_read_with_the_status_the_prompt_shows(tmp_path: Path) -> None:
    got = _commands(tmp_path, AFTER_FAILURES)
    assert [c for c, _ in got] == ["tail -f server.log", "python3 -c 'import time; time.sleep(30)'",
                                   "echo $status", "ls /nope", "exit"]
    # [SIGINT] is 128 + 2 (what `echo $status` printed), [2] is ls's
    assert dict(got)["python3 -c 'import time; time.sleep(30)'"] == 130
    assert dict(got)["ls /nope"] == 2


def test_prompts_in_a_repository_and_after_a_pipeline_are_prompts(tmp_path: Path) -> None:
    got = _commands(tmp_path, IN_A_REPOSITORY)
    assert [c for c, _ in got] == ["false | true", "true | false", "hostname", "sh -c 'kill -TERM $$'",
                                   "hostname", "exit"]
    # [0|1]: the pipeline's last command's status is the command's; [SIGTERM] is 128 + 15
    assert dict(got)["true | false"] == 1
    assert dict(got)["sh -c 'kill -TERM $$'"] == 143
