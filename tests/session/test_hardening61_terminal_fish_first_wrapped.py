"""A command typed past the last column of fish's first prompt: fish draws its ``⏎`` mark (whose
spaces give the width) only before the prompts after a command, so at the first there is none;
script(1)'s header gives the width (``COLUMNS="80"``). A space fish wrote in the last column is
the command's too. ``python3 -c '...' --model-path /models/target --speculative-draft-model-path
/models/eagle3`` at the first prompt. Before: cut after ``--model-path`` (the rest read as
output); now whole, its status the one fish's next prompt shows. A fish 3.6.0 session (``fish
--no-config -i``, TERM=xterm-256color) in an 80x24 pty, recorded with util-linux script 2.38.1,
keys typed one at a time."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FISH_FIRST_WRAPPED = b"".join([
    b'Script started on 2026-12-06 06:50:32+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="80" LINES="24"]\n',
    b"\x1b]0;/t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal6-scratch\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[30Cp\r\x1b[31C\x08p\r\x1b[31Cager \r\x1b[31Cy\x1b[K\r\x1b[32C.test \r\x1b[32Ct\x1b[K\r\x1b[33Cest \r\x1b[33Ch\x1b[K\r\x1b[34Con \r\x1b[34Con \r\x1b[35Cn \r\x1b[36C\x08\x08\x08\x08\x08\x08python \r\x1b[36C3\r\x1b[37C \r\x1b[37C \r\x1b[38C\x08 \r\x1b[38C-\r\x1b[39C\x08-\r\x1b[39Cc\r\x1b[40C \r\x1b[41C\x08 \r\x1b[41C'\r\x1b[42C\x08'\r\x1b[42Ci\r\x1b[43C\x08i\r\x1b[43Cm\r\x1b[44Cp\r\x1b[45Co\r\x1b[46Cr\r\x1b[47Ct\r\x1b[48C \r\x1b[49Cs\r\x1b[50Cy\r\x1b[51Cs\r\x1b[52C;\r\x1b[53C \r\x1b[54Cs\r\x1b[55Cy\r\x1b[56Cs\r\x1b[57C.\r\x1b[58Ce\r\x1b[59Cx\r\x1b[60Ci\r\x1b[61Ct\r\x1b[62C(\r\x1b[63C3\r\x1b[64C)\r\x1b[65C'\r\x1b[66C\x1b[25D'import sys; sys.exit(3)'\r\x1b[66C \r\x1b[67C\x08 \r\x1b[67C-\r\x1b[68C\x08-\r\x1b[68C-\r\x1b[69Cm\r\x1b[70Co\r\x1b[71Cd\r\x1b[72Ce\r\x1b[73Cl\r\x1b[74C-\r\x1b[75Cp\r\x1b[76Ca\r\x1b[77Ct\r\x1b[78Ch\r\x1b[79C \r\r\n",
    b'\x1b[A\x1b[79C \r\r\n',
    b'\x1b[A\x1b[78Ch /\x1b[A\r\r\n',
    b'\x1b[C\x1b[A\x1b[77Ch /\x1b[A\r\r\n',
    b'\x1b[Cbin/\x1b[A\r\r\n',
    b'\x1b[Cm\x1b[K\x1b[A\r\r\n',
    b'\x1b[C\x1b[Cedia/\x1b[A\r\r\n',
    b'\x1b[C\x1b[Co\x1b[K\x1b[A\r\r\n',
    b'\x1b[3C\x1b[A\x1b[75Ch /mo\x1b[A\r\r\n',
    b'\x1b[3Cd\x1b[A\r\r\n',
    b'\x1b[4Ce\x1b[A\r\r\n',
    b'\x1b[5Cl\x1b[A\r\r\n',
    b'\x1b[6Cs\x1b[A\r\r\n',
    b'\x1b[7C/\x1b[A\r\r\n',
    b'\x1b[8Ct\x1b[A\r\r\n',
    b'\x1b[9Ca\x1b[A\r\r\n',
    b'\x1b[10Cr\x1b[A\r\r\n',
    b'\x1b[11Cg\x1b[A\r\r\n',
    b'\x1b[12Ce\x1b[A\r\r\n',
    b'\x1b[13Ct\x1b[A\r\r\n',
    b'\x1b[14C \x1b[A\r\r\n',
    b'\x1b[15C\x08 \x1b[A\r\r\n',
    b'\x1b[15C-\x1b[A\r\r\n',
    b'\x1b[16C\x08-\x1b[A\r\r\n',
    b'\x1b[16C-\x1b[A\r\r\n',
    b'\x1b[17Cs\x1b[A\r\r\n',
    b'\x1b[18Cp\x1b[A\r\r\n',
    b'\x1b[19Ce\x1b[A\r\r\n',
    b'\x1b[20Cc\x1b[A\r\r\n',
    b'\x1b[21Cu\x1b[A\r\r\n',
    b'\x1b[22Cl\x1b[A\r\r\n',
    b'\x1b[23Ca\x1b[A\r\r\n',
    b'\x1b[24Ct\x1b[A\r\r\n',
    b'\x1b[25Ci\x1b[A\r\r\n',
    b'\x1b[26Cv\x1b[A\r\r\n',
    b'\x1b[27Ce\x1b[A\r\r\n',
    b'\x1b[28C-\x1b[A\r\r\n',
    b'\x1b[29Cd\x1b[A\r\r\n',
    b'\x1b[30Cr\x1b[A\r\r\n',
    b'\x1b[31Ca\x1b[A\r\r\n',
    b'\x1b[32Cf\x1b[A\r\r\n',
    b'\x1b[33Ct\x1b[A\r\r\n',
    b'\x1b[34C-\x1b[A\r\r\n',
    b'\x1b[35Cm\x1b[A\r\r\n',
    b'\x1b[36Co\x1b[A\r\r\n',
    b'\x1b[37Cd\x1b[A\r\r\n',
    b'\x1b[38Ce\x1b[A\r\r\n',
    b'\x1b[39Cl\x1b[A\r\r\n',
    b'\x1b[40C-\x1b[A\r\r\n',
    b'\x1b[41Cp\x1b[A\r\r\n',
    b'\x1b[42Ca\x1b[A\r\r\n',
    b'\x1b[43Ct\x1b[A\r\r\n',
    b'\x1b[44Ch\x1b[A\r\r\n',
    b'\x1b[45C \x1b[A\r\r\n',
    b'\x1b[46C\x08 \x1b[A\r\r\n',
    b'\x1b[46C/\x1b[A\r\r\n',
    b'\x1b[47Cbin/\x1b[A\r\r\n',
    b'\x1b[47C\x08/bin/\x1b[A\r\r\n',
    b'\x1b[47Cm\x1b[K\x1b[A\r\r\n',
    b'\x1b[48Cedia/\x1b[A\r\r\n',
    b'\x1b[48Co\x1b[K\x1b[A\r\r\n',
    b'\x1b[49C\x08\x08\x08/mo\x1b[A\r\r\n',
    b'\x1b[49Cd\x1b[A\r\r\n',
    b'\x1b[50Ce\x1b[A\r\r\n',
    b'\x1b[51Cl\x1b[A\r\r\n',
    b'\x1b[52Cs\x1b[A\r\r\n',
    b'\x1b[53C/\x1b[A\r\r\n',
    b'\x1b[54Ce\x1b[A\r\r\n',
    b'\x1b[55Ca\x1b[A\r\r\n',
    b'\x1b[56Cg\x1b[A\r\r\n',
    b'\x1b[57Cl\x1b[A\r\r\n',
    b'\x1b[58Ce\x1b[A\r\r\n',
    b'\x1b[59C3\x1b[A\r\r\n',
    b'\x1b[60C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import s /t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal6-scratch\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m3\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[34Ce\r\x1b[35C\x08e\r\x1b[35C2freefrag \r\x1b[35Cc\x1b[K\r\x1b[36Cho \r\x1b[36Cho \r\x1b[37Co \r\x1b[38C\x08\x08\x08\x08echo \r\x1b[38C \r\x1b[39C\x08 \r\x1b[39Cd\r\x1b[40C\x08d\r\x1b[40Co\r\x1b[41Cn\r\x1b[42Ce\r\x1b[43C\r\n",
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo done /t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\rdone\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/terminal6-scratch\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[30Cexit\r\x1b[34C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/terminal6-scratch\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 06:50:42+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_command_wrapped_at_the_first_fish_prompt_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH_FIRST_WRAPPED)
    doc = analyze_path(path).to_json()
    calls = [(c["command"], c["exit_code"]) for c in doc["commands"]][1:]
    assert calls == [
        ("python3 -c 'import sys; sys.exit(3)' --model-path /models/target"
         " --speculative-draft-model-path /models/eagle3", 3),
        ("echo done", 0),
        ("exit", None),
    ]
