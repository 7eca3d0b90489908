"""A command typed with ``&`` whose end the shell reports before a later prompt: bash's ``[1]+
Killed   python3 ...`` or ``Exit 3``, zsh's ``[1]  + killed     python3 ...`` (bash jobs.c
``pretty_print_job``). The line lands in the output of the command that ran then; it is the
background command's end. Before: a server launched with ``&`` that the OOM killer took, or that
exited 1, showed no error and no failed call anywhere. The typescripts are bash 5.2.15 and zsh
5.9 sessions recorded with util-linux script 2.38.1 (the processes killed themselves with
SIGKILL and SIGSEGV)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

BASH = (
    b'Script started on 2026-12-05 23:05:55+00:00 [COMMAND="bash --norc --noprofile -i" TERM="xt'
    b'erm" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n'
    b"\x1b[?2004hbash-5.2# export PS1='root@gpu01:~# '\r\n"
    b'\x1b[?2004l\r'
    b"\x1b[?2004hroot@gpu01:~# python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getpid(), 9)"
    b"' &\r\n"
    b'\x1b[?2004l\r'
    b'[1] 28733\r\n'
    b'\x1b[?2004hroot@gpu01:~# sleep 1.5\r\n'
    b'\x1b[?2004l\r'
    b"python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getpid(), 11)' > /dev/null 2>&1 &\r"
    b'\n'
    b"[1]+  Killed                  python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getp"
    b"id(), 9)'\r\n"
    b"\x1b[?2004hroot@gpu01:~# python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getpid(), 11"
    b")' > /dev/null 2>&1 &\r\n"
    b'\x1b[?2004l\r'
    b'[1] 28747\r\n'
    b'\x1b[?2004hroot@gpu01:~# sleep 1.5\r\n'
    b'\x1b[?2004l\r'
    b"python3 -c 'import time; time.sleep(0.5)' &\r\n"
    b"[1]+  Segmentation fault      python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getp"
    b"id(), 11)' > /dev/null 2>&1\r\n"
    b"\x1b[?2004hroot@gpu01:~# python3 -c 'import time; time.sleep(0.5)' &\r\n"
    b'\x1b[?2004l\r'
    b'[1] 28765\r\n'
    b'\x1b[?2004hroot@gpu01:~# sleep 1.5\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b"[1]+  Done                    python3 -c 'import time; time.sleep(0.5)'\r\n"
    b'\x1b[?2004hroot@gpu01:~# exit\r\n'
    b'\x1b[?2004l\r'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-05 23:06:02+00:00 [COMMAND_EXIT_CODE="0"]\n')

ZSH = (
    b'Script started on 2026-12-05 23:05:49+00:00 [COMMAND="zsh -f -i" TERM="xterm" TTY="/dev/pt'
    b's/0" COLUMNS="-1" LINES="-1"]\n'
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jvm# \x1b[K\x1b[?2004hP\x08PS1='root@gpu01 ~ %# '\x1b[?2004l\r"
    b'\r\n'
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[K\x1b[?2004hp\x08python3 -c 'import time; time.sleep(0.5); rai"
    b"se SystemExit(3)' >  \r"
    b'\x1b[K/\r'
    b'/dev/null &\x1b[?2004l\r'
    b'\r\n'
    b'[1] 28477\r\n'
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[K\x1b[?2004h\r'
    b'\r\n'
    b"[1]  + exit 3     python3 -c 'import time; time.sleep(0.5); raise SystemExit(3)' > /dev/nu"
    b'll\r\n'
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[Ks\x08sleep 1.5\x1b[?2004l\r'
    b'\r\n'
    b"python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getpid(), 9)' &\r\n"
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b"\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[K\x1b[?2004hp\x08python3 -c 'import os,time; time.sleep(0.5); "
    b'os.kill(os.getpid(), \r'
    b'\x1b[K \r'
    b" 9)' &\x1b[?2004l\r"
    b'\r\n'
    b'[1] 28601\r\n'
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[K\x1b[?2004hs\x08sleep 1.5\x1b[?2004l\r'
    b'\r\n'
    b"[1]  + killed     python3 -c 'import os,time; time.sleep(0.5); os.kill(os.getpid(), 9)'\r\n"
    b'hostname\r\n'
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[K\x1b[?2004hh\x08hostname\x1b[?2004l\r'
    b'\r\n'
    b'vm\r\n'
    b'\x1b[1m\x1b[7m#\x1b[27m\x1b[1m\x1b[0m                                                                    '
    b'           \r'
    b' \r'
    b'\r'
    b'\x1b[0m\x1b[27m\x1b[24m\x1b[Jroot@gpu01 ~ # \x1b[K\x1b[?2004he\x08exit\x1b[?2004l\r'
    b'\r\n'
    b'\n'
    b'Script done on 2026-12-05 23:05:55+00:00 [COMMAND_EXIT_CODE="0"]\n')


def _analyzed(tmp_path: Path, data: bytes) -> dict:
    path = tmp_path / "typescript"
    path.write_bytes(data)
    return analyze_path(path).to_json()


def _calls(doc: dict) -> list[tuple]:
    return [(c["command"][-22:], c["exit_code"], c["is_error"]) for c in doc["commands"]
            if c["command"].startswith("python3")]


def test_bash_reports_the_end_of_background_commands_as_theirs(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, BASH)
    assert _calls(doc) == [
        ("ill(os.getpid(), 9)' &", 137, True), ("1)' > /dev/null 2>&1 &", 139, True),
        ("me; time.sleep(0.5)' &", 0, False)]
    assert [(e["kind"], e["exception"], e["command_seq"]) for e in doc["errors"]] == [
        ("signal", "SIGKILL", doc["commands"][2]["seq"]), ("signal", "SIGSEGV", doc["commands"][4]["seq"])]
    assert not any(c["is_error"] for c in doc["commands"] if c["command"] == "sleep 1.5")


def test_zsh_reports_them_too(tmp_path: Path) -> None:
    doc = _analyzed(tmp_path, ZSH)
    assert [(e["kind"], e["exception"]) for e in doc["errors"]] == [("exit_code", None), ("signal", "SIGKILL")]
    assert [c["exit_code"] for c in doc["commands"] if c["command"].startswith("python3")] == [3, 137]


def test_a_server_launched_in_the_background_that_was_killed(tmp_path: Path) -> None:
    launch = "python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct > server.log 2>&1"
    path = tmp_path / "pane.log"
    path.write_text(f"root@gpu01:~# {launch} &\n[1] 12345\nroot@gpu01:~# nvidia-smi -L\n"
                    f"GPU 0: NVIDIA H100 80GB HBM3\n[1]+  Killed                  {launch}\n"
                    "root@gpu01:~# hostname\ngpu01\n")
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        (launch + " &", 137, True), ("nvidia-smi -L", None, False), ("hostname", None, False)]
    assert [(e["kind"], e["exception"], e["host"]) for e in doc["errors"]] == [("signal", "SIGKILL", "gpu01")]
