"""``scp C:\\Users\\me\\eagle3\\config.json gpu02:/data/eagle3/`` typed at a PowerShell prompt
(``PS C:\\Users\\me>``): Windows' scp reads an operand whose second character is a colon as a
drive letter, a local file (PowerShell/openssh-portable misc.c, colon(): "Account for Windows
file names in the form x: or /x:"), so the copy goes to gpu02. Before: the host was "C" (the
drive letter read as a host, as POSIX scp would), and gpu02's "Permission denied" was C's. The
console text is a PowerShell transcript's shape written by hand (no PowerShell here), its scp
messages OpenSSH 9's SFTP-mode ones (scp.c: ``dest open "%s": %s``)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.shell import parse_target

POWERSHELL_SCP = "".join(line + "\r\n" for line in [
    r'PS C:\Users\me> scp C:\Users\me\eagle3\config.json gpu02:/data/eagle3/',
    'scp: dest open "/data/eagle3/config.json": Permission denied',
    r'scp: failed to upload file C:\Users\me\eagle3\config.json to /data/eagle3/',
    r'PS C:\Users\me> scp gpu02:/data/eagle3/config.json D:\ckpt\ ',
    r'PS C:\Users\me> ssh gpu02 "ls -l /data/eagle3"',
    'total 0',
])


def test_a_drive_letter_is_no_host(tmp_path: Path) -> None:
    path = tmp_path / "console.log"
    path.write_text(POWERSHELL_SCP)
    doc = analyze_path(path).to_json()
    assert doc["hosts"] == ["gpu02"]
    assert [(c["host"], c["is_error"]) for c in doc["commands"]] == [("gpu02", True), ("gpu02", False),
                                                                     ("gpu02", False)]
    assert [(e["host"], e["message"][:14]) for e in doc["errors"]] == [("gpu02", "scp: dest open")]


def test_only_a_bare_drive_letter_is_local() -> None:
    assert parse_target(r"scp D:\w\f.bin gpu02:/w/").host == "gpu02"
    assert parse_target("scp root@c:/w/f.bin .").host == "c"  # a user@ names a host
