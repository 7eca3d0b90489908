"""A log or a JSONL line that is not UTF-8 was written in a legacy code page: Windows' cp1252
(Python's ``open()`` default there before PEP 686, a PowerShell ``Out-File -Encoding Default``)
or a Latin-1 terminal, one byte per accented letter. Each such byte became U+FFFD: the path
``C:\\modèles\\llama`` in a launch command was ``C:\\mod\ufffdles\\llama``, which no host has.
Read as cp1252 the line is what was written. And a cp1252 JSONL whose every line had an accent
was taken for a text log: its calls were no command."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path

LOG = (
    "PS C:\\Users\\José\\sglang> python -m sglang.launch_server --model-path C:\\modèles\\llama --port 30000\r\n"
    "Traceback (most recent call last):\r\n"
    '  File "C:\\modèles\\launch.py", line 3, in <module>\r\n'
    "ValueError: vocabulaire du brouillon: 32000 ≠ 128256\r\n"
    "PS C:\\Users\\José\\sglang> dir C:\\modèles\r\n"
)


def test_a_cp1252_terminal_log_keeps_its_paths(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_bytes(LOG.replace("≠", "!=").encode("cp1252"))
    a = analyze_path(path)
    assert a.stats["binary"] == 0
    assert [c.command for c in a.commands] == [
        "python -m sglang.launch_server --model-path C:\\modèles\\llama --port 30000", "dir C:\\modèles"]
    assert [(e.file, e.message) for e in a.errors] == [
        ("C:\\modèles\\launch.py", "vocabulaire du brouillon: 32000 != 128256")]


def test_one_cp1252_line_in_a_utf8_log_keeps_both(tmp_path: Path) -> None:
    # a UTF-8 log (the "≠" stays itself) with one line a Latin-1 tool wrote into it
    path = tmp_path / "gpu01.log"
    path.write_bytes(b"root@gpu01:~# cat /data/r\xe9sultats/accept.txt\n"
                     + "accept len 1.20 ≠ 3.1 expected\n".encode()
                     + b"root@gpu01:~# ls /data/r\xe9sultats/\x81\x8d\n")
    a = analyze_path(path)
    # every byte kept: cp1252's five undefined bytes read as Latin-1 does
    assert [c.command for c in a.commands] == ["cat /data/résultats/accept.txt", "ls /data/résultats/\x81\x8d"]
    assert [c.command.encode("cp1252", "ignore") for c in a.commands][0] == b"cat /data/r\xe9sultats/accept.txt"


def test_a_cp1252_jsonl_session_whose_every_line_has_an_accent(tmp_path: Path) -> None:
    messages = [
        {"role": "user", "content": "Le draft EAGLE-3 ne démarre pas sur gpu01"},
        {"role": "assistant", "content": None, "tool_calls": [{"id": "c1", "type": "function", "function": {
            "name": "bash", "arguments": json.dumps({"command": "ssh gpu01 ls /données/eagle3"}, ensure_ascii=False)}}]},
        {"role": "tool", "tool_call_id": "c1",
         "content": "ls: impossible d'accéder à '/données/eagle3': Aucun fichier ou dossier de ce type\nExit code: 2"},
    ]
    path = tmp_path / "run.jsonl"
    path.write_text("".join(json.dumps(m, ensure_ascii=False) + "\n" for m in messages), encoding="cp1252")
    a = analyze_path(path)
    assert a.stats["broken_json"] == 0
    assert [(c.command, c.host, c.is_error) for c in a.commands] == [("ssh gpu01 ls /données/eagle3", "gpu01", True)]
    assert [e.message for e in a.errors] == [
        "ls: impossible d'accéder à '/données/eagle3': Aucun fichier ou dossier de ce type"]
    assert a.sessions[0]["format"] == "openai"  # every line has an accent: was sniffed as a text log
