"""A terminal log's ``find`` whose only complaints are folders it may not read
(``find: '/data/private': Permission denied``) found what it was asked: in a tool's record
its exit 1 is already no failure (test_hardening50_find_unreadable_folders), but in a
plain log, with no status or with the status read back from a typed ``echo $?``, the same
find was a failed call with a "Permission denied" error."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

_LOG = """\
root@gpu01:~# find /data -name '*.safetensors'
find: '/data/private': Permission denied
/data/ckpt/eagle3/model.safetensors
root@gpu01:~# echo $?
1
root@gpu01:~# find / -name 'eagle3_config.json' 2>&1 | head -3
find: '/proc/1/fd': Permission denied
find: '/proc/2/fd': Permission denied
/data/ckpt/eagle3/eagle3_config.json
root@gpu01:~# find /data/nope -name '*.pt'
find: '/data/nope': No such file or directory
root@gpu01:~# echo $?
1
"""


def test_a_find_over_unreadable_folders_is_no_failure_in_a_terminal_log(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text(_LOG, encoding="utf-8")
    a = analyze_path(path)
    assert [(c.command, c.exit_code, c.is_error) for c in a.commands] == [
        ("find /data -name '*.safetensors'", 1, False), ("echo $?", None, False),
        ("find / -name 'eagle3_config.json' 2>&1 | head -3", None, False),
        # a start path that is not there is a failure, echoed status or not
        ("find /data/nope -name '*.pt'", 1, True), ("echo $?", None, False)]
    assert [e.message for e in a.errors] == ["find: '/data/nope': No such file or directory"]
    assert a.agents[0]["failed_calls"] == 1
