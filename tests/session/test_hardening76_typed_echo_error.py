"""``echo $?`` typed at the next prompt after a command that failed quietly gives the session an
error, as a status the prompt shows does.

A terminal log shows a status only where someone asked for it. Before, ``ls /ckpt/eagle3 >
/dev/null 2>&1`` then ``echo $?`` printing 2 made the ls a failed call, but no error was kept:
the analysis's errors (and the postmortem's) were empty while the agent counted two failed calls.
Now the failure keeps an error: "exit code 2" for a command that printed nothing, the line a
program printed before it exited 3 for one that did (as ``[3] root@gpu01:~#`` would give); an
echoed 0 after ``true`` gives none. The typescript is bash 5.2 recorded with util-linux script
2.38."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TYPESCRIPT = (
    b'Script started on 2026-12-07 20:17:26+00:00 [COMMAND="bash --norc --noprofile -i < cmds2.txt" '
    b'<not executed on terminal>]\n'
    b"bash-5.2# export PS1='root@gpu01:~# '\r\n"
    b"root@gpu01:~# ls /ckpt/eagle3 > /dev/null 2>&1\r\n"
    b"root@gpu01:~# echo $?\r\n2\r\n"
    b"root@gpu01:~# python3 -c \"print('loading draft from /ckpt/eagle3'); raise SystemExit(3)\"\r\n"
    b"loading draft from /ckpt/eagle3\r\n"
    b'root@gpu01:~# echo "rc=$?"\r\nrc=3\r\n'
    b"root@gpu01:~# true\r\n"
    b"root@gpu01:~# echo $?\r\n0\r\n"
    b"root@gpu01:~# exit\r\nexit\r\n\n"
    b'Script done on 2026-12-07 20:17:27+00:00 [COMMAND_EXIT_CODE="0"]\n')


def test_failures_an_echo_reports_are_errors(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TYPESCRIPT)
    doc = analyze_path(path).to_json()
    commands = {c["seq"]: c["command"] for c in doc["commands"]}
    got = [(commands[e["command_seq"]], e["kind"], e["message"], e["host"], e["source_line"]) for e in doc["errors"]]
    assert got == [
        ("ls /ckpt/eagle3 > /dev/null 2>&1", "exit_code", "exit code 2", "gpu01", 5),
        ("python3 -c \"print('loading draft from /ckpt/eagle3'); raise SystemExit(3)\"", "exit_code",
         "loading draft from /ckpt/eagle3", "gpu01", 7)]
    assert doc["agents"][0]["failed_calls"] == 2
