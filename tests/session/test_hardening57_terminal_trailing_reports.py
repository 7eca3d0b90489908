"""What the terminal prints after a command ended is no part of its output: the report of a
``time`` prefix (bash's ``real``/``user``/``sys`` lines, ``time -p``'s) and ssh's ``Connection to
127.0.0.1 closed.`` as a session with a tty (``ssh -t``) ends. Before: those were the output's
last line, so a failure the program wrote last (``Error: could not load draft`` of
``sys.exit``, argparse's ``args.py: error: ...``, a set -e script's ``cp: cannot stat ...``) was
not seen and the call read as a success. The typescripts are bash 5.2.15 sessions recorded with
util-linux script 2.38.1; gpu02 is an ssh_config alias of a real OpenSSH server on loopback
(tests/sshd_fixture.py), LogLevel left at its default."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_START = (b'Script started on 2026-12-06 02:12:44+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xterm" '
          b'TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
          b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
          b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# cd /tmp/terminal-scratch/rec\r\n')
_DONE = (b'\x1b[?2004hroot@gpu01:~# echo end\r\n'
         b'\x1b[?2004l\rend\r\n'
         b'\x1b[?2004hroot@gpu01:~# exit\r\n'
         b'\x1b[?2004l\rexit\r\n'
         b'\n'
         b'Script done on 2026-12-06 02:12:54+00:00 [COMMAND_EXIT_CODE="0"]\n')

TIMED = _START + b"".join([
    b'\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# time python3 load.py\r\n',
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'\r\n',
    b'real\t0m0.083s\r\n',
    b'user\t0m0.031s\r\n',
    b'sys\t0m0.004s\r\n',
    b'\x1b[?2004hroot@gpu01:~# time ./deploy.sh\r\n',
    b'\x1b[?2004l\rcopying draft\r\n',
    b"cp: cannot stat '/models/nope/config.json': No such file or directory\r\n",
    b'\r\n',
    b'real\t0m0.013s\r\n',
    b'user\t0m0.002s\r\n',
    b'sys\t0m0.002s\r\n',
    b'\x1b[?2004hroot@gpu01:~# time -p python3 args.py --bogus\r\n',
    b'\x1b[?2004l\rusage: args.py [-h] [--draft DRAFT]\r\n',
    b'args.py: error: unrecognized arguments: --bogus\r\n',
    b'real 0.10\r\n',
    b'user 0.02\r\n',
    b'sys 0.01\r\n',
]) + _DONE

SSH_TTY = _START + b"".join([
    b"\x1b[?2004l\r\x1b[?2004hroot@gpu01:~# ssh -F cfg -t gpu02 'cd /tmp/terminal-scratch/rec && python3 load.py'\r\n",
    b'\x1b[?2004l\rloading draft from /ckpt/eagle3\r\n',
    b'Error: could not load draft\r\n',
    b'Connection to 127.0.0.1 closed.\r\r\n',
    b"\x1b[?2004hroot@gpu01:~# ssh -F cfg -t gpu02 'cd /tmp/terminal-scratch/rec && ./deploy.sh'\r\n",
    b'\x1b[?2004l\rcopying draft\r\n',
    b"cp: cannot stat '/models/nope/config.json': No such file or directory\r\n",
    b'Connection to 127.0.0.1 closed.\r\r\n',
]) + _DONE


def _analyzed(tmp_path: Path, data: bytes) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return analyze_path(path).to_json()


def test_a_time_report_after_the_failure_hides_it_no_more(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, TIMED)
    failed = {c["command"]: c["is_error"] for c in doc["commands"] if c["host"] == "gpu01"}
    assert failed == {"cd /tmp/terminal-scratch/rec": False, "time python3 load.py": True, "time ./deploy.sh": True,
                      "time -p python3 args.py --bogus": True, "echo end": False, "exit": False}
    assert [e["message"] for e in doc["errors"]] == [
        "Error: could not load draft", "cp: cannot stat '/models/nope/config.json': No such file or directory",
        "args.py: error: unrecognized arguments: --bogus"]


def test_ssh_closing_note_after_the_failure_hides_it_no_more(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, SSH_TTY)
    got = [(c["host"], c["is_error"]) for c in doc["commands"] if c["command"].startswith("ssh ")]
    assert got == [("gpu02", True), ("gpu02", True)]
    assert [(e["host"], e["message"]) for e in doc["errors"]] == [
        ("gpu02", "Error: could not load draft"),
        ("gpu02", "cp: cannot stat '/models/nope/config.json': No such file or directory")]
