"""``rsync -e 'ssh -p 2222' ... ubuntu@gpu02:/w/`` typed where rsync is not installed: the
prompt's bash answers "bash: rsync: command not found" (a remote shell would say "bash: line 1:
rsync: ..."), so nothing ran on gpu02 and the error is the prompt host's (gpu-node-7). Before:
gpu02's, as if rsync were missing there. The typescript is a bash 5.2.15 session recorded with
util-linux script 2.38.1 on a machine without rsync."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

RSYNC_MISSING = b"".join([
    b'Script started on 2026-12-06 03:01:31+00:00 [COMMAND="bash --norc --noprofile -i" <not executed on terminal>]\n',
    b"\x1b[?2004hbash-5.2# export PS1='ubuntu@gpu-node-7:~/sglang$ '\r\n",
    b'\x1b[?2004l\r',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ cd /tmp/terminal2-scratch/rec\r\n',
    b'\x1b[?2004l\r',
    b"\x1b[?2004hubuntu@gpu-node-7:~/sglang$ rsync -e 'ssh -p 2222' -a load.py ubuntu@gpu02:/w/\r\n",
    b'\x1b[?2004l\r',
    b'bash: rsync: command not found\r\n',
    b'\x1b[?2004hubuntu@gpu-node-7:~/sglang$ exit\r\n',
    b'\x1b[?2004l\r',
    b'exit\r\n',
    b'\n',
    b'Script done on 2026-12-06 03:01:34+00:00 [COMMAND_EXIT_CODE="127"]\n',
])


def test_a_missing_program_that_would_reach_a_host_is_the_prompt_hosts_error(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(RSYNC_MISSING)
    doc = analyze_path(path).to_json()
    assert [(e["host"], e["message"]) for e in doc["errors"]] == [("gpu-node-7", "bash: rsync: command not found")]
