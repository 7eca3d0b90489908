"""A command typed at a fish prompt past the terminal's last column, where the key that wrapped
was not a space: fish 3.6.0 writes that key on the new row from the column it fell in
(``\x1b[C\x1b[C'``) and only then goes back up (``\x1b[A``) to redraw; only a row that started with
the move up was read as the wrap, so the command was its first row alone: ``python3 -c 'import
sys; sys.exit("Error: no GPU visible`` for ``...visible to the draft")'``, and the closing quote
lost where it alone wrapped. The typescript was recorded with util-linux script 2.38.1 and
fish 3.6.0 in an 80-column pty (the third command wraps at a space and was read already)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

TS = b"".join([
    b'Script started on 2026-12-07 04:41:58+00:00 [COMMAND="fish -N -i" <not executed on terminal>]\n',
    b'\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r',
    b'root\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m (main)\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[25Ccd \r',
    b'\x1b[28C/tmp/textlogs8-scratch/rec\r',
    b'\x1b[54C\x1b[29Dcd /tmp/textlogs8-scratch/rec\r',
    b'\x1b[54C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;cd /tmp/textlogs8-sc /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                 '
    b'              \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b['
    b'm (main)\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[25Cpython3 \r',
    b'\x1b[33C-c \r',
    b"\x1b[36C'import \r",
    b'\x1b[44Csys;\r',
    b'\x1b[48C \r',
    b'\x1b[49Csys.exit("Error: \r',
    b'\x1b[66Cno \r',
    b'\x1b[69CGPU \r',
    b'\x1b[73Cvisible")\x1b[A\r',
    b'\r\n',
    b"\x1b[C\x1b[C'\x1b[A\r",
    b'\r\n',
    b'\x1b[3C\x1b[A\x1b[22Cpython3 -c \'import sys; sys.exit("Error: no GPU visible")\'\x1b[A\r',
    b'\r\n',
    b'\x1b[3C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import s /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r",
    b'Error: no GPU visible\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                 '
    b'              \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b['
    b'm (main)\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m1\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b('
    b'B\x1b[m# \x1b[K\r',
    b'\x1b[29Cpython3 \r',
    b'\x1b[37C-c \r',
    b"\x1b[40C'import \r",
    b'\x1b[48Csys;\r',
    b'\x1b[52C \r',
    b'\x1b[53Csys.exit("Error: \r',
    b'\x1b[70Cno \r',
    b'\x1b[73CGPU \r',
    b'\x1b[77Cvisible \x1b[A\r',
    b'\r\n',
    b'\x1b[5Cto \x1b[A\r',
    b'\r\n',
    b'\x1b[8Cthe \x1b[A\r',
    b'\r\n',
    b'\x1b[12Cdraft")\x1b[A\r',
    b'\r\n',
    b"\x1b[19C'\x1b[A\r",
    b'\r\n',
    b'\x1b[20C\x1b[A\x1b[9Cpython3 -c \'import sys; sys.exit("Error: no GPU visible to the draft")\'\x1b[A\r',
    b'\r\n',
    b'\x1b[20C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import s /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r",
    b'Error: no GPU visible to the draft\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                 '
    b'              \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b['
    b'm (main)\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m1\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b('
    b'B\x1b[m# \x1b[K\r',
    b'\x1b[29Cecho \r',
    b"\x1b[34C'draft \r",
    b'\x1b[41Chead \r',
    b'\x1b[46C/ckpt/eagle3-llama3.1-8b-instruct \r',
    b'\r\n',
    b'\x1b[A\x1b[78Ct loaded \x1b[A\r',
    b'\r\n',
    b'\x1b[7Cfrom \x1b[A\r',
    b'\r\n',
    b'\x1b[12Cthe \x1b[A\r',
    b'\r\n',
    b'\x1b[16Ccheckpoint \x1b[A\r',
    b'\r\n',
    b"\x1b[27Cfolder' \x1b[A\r",
    b'\r\n',
    b'\x1b[35C|\x1b[A\r',
    b'\r\n',
    b'\x1b[36C \x1b[A\r',
    b'\r\n',
    b'\x1b[37Cwc \x1b[A\r',
    b'\r\n',
    b'\x1b[40C-c\x1b[A\r',
    b'\r\n',
    b"\x1b[42C\x1b[A\x1b[13Decho 'draft head /ckpt/eagle3-llama3.1-8b-instruct loaded from the checkpo"
    b"int folder' | wc -c\x1b[A\r",
    b'\r\n',
    b'\x1b[42C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;echo 'draft head /ck /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r",
    b'79\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                 '
    b'              \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b['
    b'm (main)\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[25Cexit\r',
    b'\x1b[29C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-07 04:42:04+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_command_fish_wrapped_on_a_key_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(TS)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"]][2:] == [
        ("python3 -c 'import sys; sys.exit(\"Error: no GPU visible\")'", 1),
        ("python3 -c 'import sys; sys.exit(\"Error: no GPU visible to the draft\")'", 1),
        ("echo 'draft head /ckpt/eagle3-llama3.1-8b-instruct loaded from the checkpoint folder' | wc -c", 0),
        ("exit", None)]
    assert [e["message"] for e in doc["errors"]] == ["Error: no GPU visible", "Error: no GPU visible to the draft"]
