"""Output that ends with no newline (``curl -s`` printing a server's JSON reply) is followed on its
row by fish's mark, a dim ``⏎`` and spaces to the last column, then a carriage return and the
prompt: the terminal wraps the mark onto a row of its own and the reply stays on screen. Before:
the row was read with its carriage returns applied, so the reply was written over and lost (the
server's "CUDA out of memory" unseen, the request a success); now the reply is the command's
output, as with zsh's mark. The typescript is a fish 3.6.0 session (``fish --no-config``,
TERM=xterm-256color) in an 80x24 pty, recorded with util-linux script 2.38.1; the reply is from a
local stand-in server answering 500 with an OpenAI-style error body and no newline."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FISH_REPLY_WITHOUT_NEWLINE = b"".join([
    b'Script started on 2026-12-06 06:21:01+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/2" COLUMNS="80" LINES="24"]\n',
    b"\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cc\r\x1b[19C\x08c\r\x1b[19C++ \r\x1b[19Cu\x1b[K\r\x1b[20Cdafe++ \r\x1b[20Cr\x1b[K\r\x1b[21Cl \r\x1b[21Cl \r\x1b[22C\x08\x08\x08\x08curl \r\x1b[22C \r\x1b[23C\x08 \r\x1b[23C-\r\x1b[24C\x08-\r\x1b[24Cs\r\x1b[25C \r\x1b[26C\x08 \r\x1b[26Cl\r\x1b[27C\x08l\r\x1b[27Co\r\x1b[28Cc\r\x1b[29Ca\r\x1b[30Cl\r\x1b[31Ch\r\x1b[32Co\r\x1b[33Cs\r\x1b[34Ct\r\x1b[35C:\r\x1b[36Cdrive.py \r\x1b[36C3\x1b[K\r\x1b[37C8\r\x1b[38C1\r\x1b[39C2\r\x1b[40C3\r\x1b[41C/\r\x1b[42Cv\r\x1b[43C1\r\x1b[44C/\r\x1b[45Cc\r\x1b[46Co\r\x1b[47Cm\r\x1b[48Cp\r\x1b[49Cl\r\x1b[50Ce\r\x1b[51Ct\r\x1b[52Ci\r\x1b[53Co\r\x1b[54Cn\r\x1b[55Cs\r\x1b[56C \r\x1b[57C\x08 \r\x1b[57C-\r\x1b[58C\x08-\r\x1b[58Cd\r\x1b[59C \r\x1b[60C\x08 \r\x1b[60C'\r\x1b[61C\x08'\r\x1b[61C{\r\x1b[62C\x08{\r\x1b[62C}\r\x1b[63C'\r\x1b[64C\x08\x08\x08\x08'{}'\r\x1b[64C\r\n",
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;curl -s localhost:38 /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r{"object":"error","message":"CUDA out of memory. Tried to allocate 2.00 GiB","type":"InternalServerError","code":500}\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ce\r\x1b[19C\x08e\r\x1b[19C2freefrag \r\x1b[19Cc\x1b[K\r\x1b[20Cho \r\x1b[20Cho \r\x1b[21Co \r\x1b[22C\x08\x08\x08\x08echo \r\x1b[22C \r\x1b[23C\x08 \r\x1b[23Cn\r\x1b[24C\x08n\r\x1b[24Ce\r\x1b[25Cx\r\x1b[26Ct\r\x1b[27C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo next /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rnext\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ce\r\x1b[19Ccho next\r\x1b[19C\x08echo next\r\x1b[19Cx\x1b[K\r\x1b[20C\x08\x08ex\r\x1b[20C \r\x1b[20Ci\r\x1b[21C\x08\x08\x08exi\r\x1b[21Ct \r\x1b[21Ct \r\x1b[22C\x08\x08\x08\x08exit \r\x1b[22C\x1b[K\r\x1b[22C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 06:21:07+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_output_ending_without_a_newline_before_a_fish_prompt_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH_REPLY_WITHOUT_NEWLINE)
    doc = analyze_path(path).to_json()
    calls = [(c["command"], c["is_error"]) for c in doc["commands"]][1:]
    assert calls == [("curl -s localhost:38123/v1/completions -d '{}'", True), ("echo next", False), ("exit", False)]
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]
