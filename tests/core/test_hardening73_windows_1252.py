"""A playbook (or --var-file) saved as Windows "ANSI" text, Windows-1252.

Notepad, Word and Excel write curly quotes as the bytes 0x93 and 0x94 there. The error said
"save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)"; latin1 reads 0x80 to 0x9F as C1
control characters, and the converted file was refused again: "character U+0093 is not allowed
in YAML". Now the hint names Windows-1252 and the character the byte is; a latin1 file (é as
0xe9, no byte from 0x80 to 0x9F) keeps its hint, the two agree there.
"""

from __future__ import annotations

import subprocess

from tests.conftest import run_cli

PLAYBOOK = b"name: smoke\nvars:\n  m: x\nsteps:\n  - id: gpu\n    title: GPU \x93check\x94\n    run: echo {{ m }}\n"


def test_a_windows_1252_playbook_is_told_its_encoding(tmp_path):
    playbook = tmp_path / "smoke.yaml"
    playbook.write_bytes(PLAYBOOK)
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines() == [
        f"error: {playbook}:6:16: playbook is not UTF-8 text (byte 0x93 at offset 59)",
        "  hint: save the file as UTF-8 (e.g. iconv -f windows-1252 -t utf-8): byte 0x93 is \u201c in Windows-1252, "
        "the encoding of Windows' ANSI text",
    ]
    # The command in the hint gives a playbook that loads.
    converted = tmp_path / "converted.yaml"
    converted.write_bytes(subprocess.run(["iconv", "-f", "windows-1252", "-t", "utf-8", str(playbook)],
                                         capture_output=True, check=True).stdout)
    assert run_cli("playbooks", "validate", str(converted)).code == 0


def test_a_windows_1252_var_file_is_told_its_encoding(tmp_path):
    playbook = tmp_path / "smoke.yaml"
    playbook.write_bytes(PLAYBOOK.replace(b"\x93check\x94", b"check"))
    var_file = tmp_path / "vars.yaml"
    var_file.write_bytes(b"m: \x93x\x94\n")
    result = run_cli("run", str(playbook), "--host", "local", "--var-file", str(var_file), "--out", str(tmp_path / "runs"))
    assert result.code == 2
    assert ("hint: save the file as UTF-8 (e.g. iconv -f windows-1252 -t utf-8): byte 0x93 is \u201c in Windows-1252"
            in result.stderr), result.stderr


def test_a_latin1_playbook_keeps_its_hint(tmp_path):
    playbook = tmp_path / "smoke.yaml"
    playbook.write_bytes(PLAYBOOK.replace(b"\x93check\x94", b"caf\xe9"))
    result = run_cli("playbooks", "validate", str(playbook))
    assert result.code == 2
    assert result.stderr.splitlines()[1] == "  hint: save the file as UTF-8 (e.g. iconv -f latin1 -t utf-8)"
