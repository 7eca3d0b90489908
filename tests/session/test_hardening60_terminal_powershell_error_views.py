"""PowerShell's error records in a console log, where no exit status is recorded. Windows
PowerShell 5.1's NormalView puts the command's name, " : " and the message first (``dir : Cannot
find path 'C:\\models\\eagle3' because it does not exist.``), then the position and the category
lines; PowerShell 7's ConciseView, for an error in a script, shows the header, a ``Line |`` row,
the line with ``~`` under it and the message on ``     | `` rows. Before: neither was an error
(the 5.1 line's space before the colon is no "name: message", the 7 message is on no line of its
own); now each command failed with PowerShell's message. A program's stderr that 5.1 shows in
the same shape under ``2>&1`` (``NativeCommandError``) is no failure; a bash output listing a file named
"Line |" or a table is no error. The console text is written by hand in the shapes PowerShell
prints (PowerShell/PowerShell src/System.Management.Automation/FormatAndOutput/DefaultFormatters/
PowerShellCore_format_ps1xml.cs, the ErrorRecord view; no PowerShell here)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

WINDOWS_POWERSHELL = "".join(line + "\r\n" for line in [
    r"PS C:\Users\me> dir C:\models\eagle3",
    r"dir : Cannot find path 'C:\models\eagle3' because it does not exist.",
    "At line:1 char:1",
    r"+ dir C:\models\eagle3",
    "+ ~~~~~~~~~~~~~~~~~~~~",
    r"    + CategoryInfo          : ObjectNotFound: (C:\models\eagle3:String) [Get-ChildItem], ItemNotFoundException",
    "    + FullyQualifiedErrorId : PathNotFound,Microsoft.PowerShell.Commands.GetChildItemCommand",
    "",
    r"PS C:\Users\me> echo ok",
    "ok",
])

POWERSHELL_7 = "".join(line + "\r\n" for line in [
    r"PS C:\Users\me> .\sync.ps1",
    r"Get-Item: C:\Users\me\sync.ps1:3",
    "Line |",
    r"   3 |  Get-Item C:\models\eagle3\config.json",
    "     |  ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
    r"     | Cannot find path 'C:\models\eagle3\config.json' because it does not",
    "     | exist.",
    r"PS C:\Users\me> echo ok",
    "ok",
])

NATIVE_STDERR = "".join(line + "\r\n" for line in [
    r"PS C:\Users\me> git clone https://github.com/sgl-project/sglang 2>&1",
    "git : Cloning into 'sglang'...",
    "At line:1 char:1",
    "+ git clone https://github.com/sgl-project/sglang 2>&1",
    "+ ~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~",
    "    + CategoryInfo          : NotSpecified: (Cloning into 'sglang'...:String) [], RemoteException",
    "    + FullyQualifiedErrorId : NativeCommandError",
    "",
    r"PS C:\Users\me> echo ok",
    "ok",
])

BASH_TABLE = "".join(line + "\n" for line in [
    "me@gpu01:~$ cat notes.md",
    "| Step | Result |",
    "Line |",
    "   3 | accept length 3.1",
    "me@gpu01:~$ echo ok",
    "ok",
])


def _calls(tmp_path: Path, text: str) -> tuple[dict, list[tuple[str, bool]]]:
    path = tmp_path / "console.log"
    path.write_text(text)
    doc = analyze_path(path).to_json()
    return doc, [(c["command"], c["is_error"]) for c in doc["commands"]]


def test_windows_powershell_normal_view_error_fails_the_command(tmp_path: Path) -> None:
    doc, calls = _calls(tmp_path, WINDOWS_POWERSHELL)
    assert calls == [(r"dir C:\models\eagle3", True), ("echo ok", False)]
    assert [e["message"] for e in doc["errors"]] == [
        r"dir : Cannot find path 'C:\models\eagle3' because it does not exist."]


def test_powershell_7_concise_view_error_with_its_line_fails_the_command(tmp_path: Path) -> None:
    doc, calls = _calls(tmp_path, POWERSHELL_7)
    assert calls == [(r".\sync.ps1", True), ("echo ok", False)]
    assert [e["message"] for e in doc["errors"]] == [
        r"Get-Item: Cannot find path 'C:\models\eagle3\config.json' because it does not exist."]


def test_a_programs_stderr_under_2_and_1_is_no_error(tmp_path: Path) -> None:
    doc, calls = _calls(tmp_path, NATIVE_STDERR)
    assert calls == [("git clone https://github.com/sgl-project/sglang 2>&1", False), ("echo ok", False)]
    assert doc["errors"] == []


def test_a_table_row_named_line_is_no_error(tmp_path: Path) -> None:
    doc, calls = _calls(tmp_path, BASH_TABLE)
    assert calls == [("cat notes.md", False), ("echo ok", False)]
    assert doc["errors"] == []
