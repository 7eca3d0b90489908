"""A shell script's failure in a terminal log is the line's only where the line's status is the
script's (bash(1), Pipelines and Lists), as a Python program's sys.exit message is
(python_exit): ``./deploy.sh 2>&1 | tee deploy.log`` exits with tee's 0 (an ``echo $?`` after it
printed 0 in the same recording), and fails only after ``set -o pipefail``. A script run as a
shell's ``-c`` script (``bash -c 'cd /tmp && .../deploy.sh'``, exit 1) is read for it, as the
Python check reads one. Before: the tee pipeline was a failed call, the bash -c run a success.
The typescript is a bash 5.2.15 session recorded with util-linux script 2.38.1."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TEE = b"".join([
    b'Script started on 2026-12-06 02:42:37+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ cd /tmp/terminal2-scratch/rec\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ./deploy.sh 2>&1 | tee deploy.log\r\n',
    b'\x1b[?2004l\r',
    b'copying weights\r\n',
    b"cp: cannot stat '/models/eagle3/x.safetensors': No such file or directory\r\n",
    b"\x1b[?2004hubuntu@gpu-node-7:~/sglang$ bash -c 'cd /tmp && /tmp/terminal2-scratch/rec/deploy.sh'\r\n",
    b'\x1b[?2004l\r',
    b'copying weights\r\n',
    b"cp: cannot stat '/models/eagle3/x.safetensors': No such file or directory\r\n",
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ set -o pipefail\r\n',
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ ./deploy.sh 2>&1 | tee deploy.log\r\n',
    b'\x1b[?2004l\r',
    b'copying weights\r\n',
    b"cp: cannot stat '/models/eagle3/x.safetensors': No such file or directory\r\n",
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 02:42:39+00:00 [COMMAND_EXIT_CODE="1"]\n',
])


def test_a_script_fails_the_line_only_where_its_status_is_the_lines(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TEE)
    doc = analyze_path(path).to_json()
    ran = {(c["seq"], c["command"]): c["is_error"] for c in doc["commands"]}
    assert [failed for (_seq, command), failed in ran.items() if "deploy.sh" in command] == [False, True, True]
    assert [e["message"] for e in doc["errors"]] == ["cp: cannot stat '/models/eagle3/x.safetensors': "
                                                      "No such file or directory"] * 2
