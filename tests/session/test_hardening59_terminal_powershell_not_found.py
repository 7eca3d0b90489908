"""``rsync -av .\\ckpt gpu01:/data/`` typed at a PowerShell prompt on a machine with no rsync:
PowerShell's CommandNotFoundException, in Windows PowerShell 5.1's words (``rsync : The term
'rsync' is not recognized as the name of a cmdlet, function, script file, or operable program.``,
then ``At line:1 char:1`` and the category lines) or PowerShell 7's (``rg: The term 'rg' is not
recognized as a name of a cmdlet, function, script file, or executable program.``). Before: the
command succeeded (no error read) and ran on gpu01. Now it failed, its error the prompt host's (the
Windows machine, no host named), as bash's "rsync: command not found" is. The console text is a
PowerShell transcript's shape written by hand (no PowerShell here), its messages as PowerShell
prints them (quoted in public issue threads and logs)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

WINDOWS_POWERSHELL = "".join(line + "\r\n" for line in [
    r"PS C:\Users\me> rsync -av .\ckpt gpu01:/data/",
    "rsync : The term 'rsync' is not recognized as the name of a cmdlet, function, script file, or operable "
    "program. Check the spelling of the name, or if a path was included, verify that the path is correct and try "
    "again.",
    "At line:1 char:1",
    r"+ rsync -av .\ckpt gpu01:/data/",
    "+ ~~~~~",
    "    + CategoryInfo          : ObjectNotFound: (rsync:String) [], CommandNotFoundException",
    "    + FullyQualifiedErrorId : CommandNotFoundException",
    "",
    r"PS C:\Users\me> scp .\ckpt\config.json gpu01:/data/",
    "config.json                                   100%  1234     1.2KB/s   00:00",
])

POWERSHELL_7 = "".join(line + "\r\n" for line in [
    r"PS C:\Users\me> rsync -av .\ckpt gpu01:/data/",
    "rsync: The term 'rsync' is not recognized as a name of a cmdlet, function, script file, or executable program.",
    "Check the spelling of the name, or if a path was included, verify that the path is correct and try again.",
    r"PS C:\Users\me> ssh gpu01 ls /data",
    "config.json",
])


def _failed(tmp_path: Path, text: str) -> tuple[list, list]:
    path = tmp_path / "console.log"
    path.write_text(text)
    doc = analyze_path(path).to_json()
    return ([(c["command"], c["host"], c["is_error"]) for c in doc["commands"]],
            [(e["host"], e["message"].split(" is ")[0]) for e in doc["errors"]])


def test_windows_powershell_has_no_rsync(tmp_path: Path) -> None:
    commands, errors = _failed(tmp_path, WINDOWS_POWERSHELL)
    assert commands == [(r"rsync -av .\ckpt gpu01:/data/", "gpu01", True),
                        (r"scp .\ckpt\config.json gpu01:/data/", "gpu01", False)]
    assert errors == [(None, "rsync : The term 'rsync'")]


def test_powershell_7_has_no_rsync(tmp_path: Path) -> None:
    commands, errors = _failed(tmp_path, POWERSHELL_7)
    assert [c[2] for c in commands] == [True, False]
    assert errors == [(None, "rsync: The term 'rsync'")]
