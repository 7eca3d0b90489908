"""A command typed at a fish prompt past the terminal's last column goes on on the next row, and
fish redraws it a key at a time, going back up a row each time. ``python3 -c '...' --model-path
/models/target --speculative-draft-model-path /models/eagle3`` typed in an 80-column terminal.
Before: the command was only what its first row showed (the draft's path lost, the rest read as
output); now it is the whole command, its status the one fish's next prompt shows. The typescript
is a fish 3.6.0 session (``fish --no-config``, TERM=xterm-256color) in an 80x24 pty, recorded
with util-linux script 2.38.1, keys typed one at a time (a line given up with Ctrl-C, a
``sleep 30`` stopped with Ctrl-C before it)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FISH_WRAPPED = b"".join([
    b'Script started on 2026-12-06 06:16:49+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/2" COLUMNS="80" LINES="24"]\n',
    b'\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cr\r\x1b[19C\x08r\r\x1b[19Candom \r\x1b[19Cm\x1b[K\r\x1b[20C \r\x1b[20C\x08\x08rm \r\x1b[20C \r\x1b[21C\x08 \r\x1b[21C-\r\x1b[22C\x08-\r\x1b[22Cr\r\x1b[23Cf\r\x1b[24C \r\x1b[25C\x08 \r\x1b[25C/\r\x1b[26C\x08/\r\x1b[26Cbin/\r\x1b[26Cm\x1b[K\r\x1b[27Cedia/\r\x1b[27Co\x1b[K\r\x1b[28C\x08\x08\x08/mo\r\x1b[28Cd\r\x1b[29Ce\r\x1b[30Cl\r\x1b[31Cs\r\x1b[32C/\r\x1b[33Ce\r\x1b[34Ca\r\x1b[35Cg\r\x1b[36Cl\r\x1b[37Ce\r\x1b[38C3\r\x1b[39C^C\x1b[30m\x1b(B\x1b[m\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[Kroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cs\r\x1b[19Canstats \r\x1b[19C\x08sanstats \r\x1b[19Cl\x1b[K\r\x1b[20Cabtop \r\x1b[20Ce\x1b[K\r\x1b[21Cep \r\x1b[21Cep \r\x1b[22Cp \r\x1b[23C\x08\x08\x08\x08\x08sleep \r\x1b[23C \r\x1b[24C\x08 \r\x1b[24C3\r\x1b[25C\x083\r\x1b[25C0\r\x1b[26C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;sleep 30 /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r^C\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31mSIGINT\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[27Cp\r\x1b[28C\x08p\r\x1b[28Cager \r\x1b[28Cy\x1b[K\r\x1b[29C.test \r\x1b[29Ct\x1b[K\r\x1b[30Cest \r\x1b[30Ch\x1b[K\r\x1b[31Con \r\x1b[31Con \r\x1b[32Cn \r\x1b[33C\x08\x08\x08\x08\x08\x08python \r\x1b[33C3\r\x1b[34C \r\x1b[34C \r\x1b[35C\x08 \r\x1b[35C-\r\x1b[36C\x08-\r\x1b[36Cc\r\x1b[37C \r\x1b[38C\x08 \r\x1b[38C\'\r\x1b[39C\x08\'\r\x1b[39Ci\r\x1b[40C\x08i\r\x1b[40Cm\r\x1b[41Cp\r\x1b[42Co\r\x1b[43Cr\r\x1b[44Ct\r\x1b[45C \r\x1b[46Cs\r\x1b[47Cy\r\x1b[48Cs\r\x1b[49C;\r\x1b[50C \r\x1b[51Cp\r\x1b[52Cr\r\x1b[53Ci\r\x1b[54Cn\r\x1b[55Ct\r\x1b[56C(\r\x1b[57C"\r\x1b[58Cx\r\x1b[59C"\r\x1b[60C \r\x1b[61C*\r\x1b[62C \r\x1b[63C1\r\x1b[64C0\r\x1b[65C)\r\x1b[66C;\r\x1b[67C \r\x1b[68Cs\r\x1b[69Cy\r\x1b[70Cs\r\x1b[71C.\r\x1b[72Ce\r\x1b[73Cx\r\x1b[74Ci\r\x1b[75Ct\r\x1b[76C(\r\x1b[77C3\r\x1b[78C)\r\x1b[79C\'\r\r\n',
    b'\x1b[A\x1b[38C\'import sys; print("x" * 10); sys.exit(3)\'\r\r\n',
    b"\x1b[A\x1b[78C)' \x1b[A\r\r\n",
    b"\x1b[C\x1b[A\x1b[77C)' \x1b[A\r\r\n",
    b'\x1b[C-\x1b[A\r\r\n',
    b'\x1b[C\x1b[C\x08-\x1b[A\r\r\n',
    b'\x1b[C\x1b[C-\x1b[A\r\r\n',
    b'\x1b[3Cm\x1b[A\r\r\n',
    b'\x1b[4Co\x1b[A\r\r\n',
    b'\x1b[5Cd\x1b[A\r\r\n',
    b'\x1b[6Ce\x1b[A\r\r\n',
    b'\x1b[7Cl\x1b[A\r\r\n',
    b'\x1b[8C-\x1b[A\r\r\n',
    b'\x1b[9Cp\x1b[A\r\r\n',
    b'\x1b[10Ca\x1b[A\r\r\n',
    b'\x1b[11Ct\x1b[A\r\r\n',
    b'\x1b[12Ch\x1b[A\r\r\n',
    b'\x1b[13C \x1b[A\r\r\n',
    b'\x1b[14C\x08 \x1b[A\r\r\n',
    b'\x1b[14C/\x1b[A\r\r\n',
    b'\x1b[15Cbin/\x1b[A\r\r\n',
    b'\x1b[15C\x08/bin/\x1b[A\r\r\n',
    b'\x1b[15Cm\x1b[K\x1b[A\r\r\n',
    b'\x1b[16Cedia/\x1b[A\r\r\n',
    b'\x1b[16Co\x1b[K\x1b[A\r\r\n',
    b'\x1b[17C\x08\x08\x08/mo\x1b[A\r\r\n',
    b'\x1b[17Cd\x1b[A\r\r\n',
    b'\x1b[18Ce\x1b[A\r\r\n',
    b'\x1b[19Cl\x1b[A\r\r\n',
    b'\x1b[20Cs\x1b[A\r\r\n',
    b'\x1b[21C/\x1b[A\r\r\n',
    b'\x1b[22Ct\x1b[A\r\r\n',
    b'\x1b[23Ca\x1b[A\r\r\n',
    b'\x1b[24Cr\x1b[A\r\r\n',
    b'\x1b[25Cg\x1b[A\r\r\n',
    b'\x1b[26Ce\x1b[A\r\r\n',
    b'\x1b[27Ct\x1b[A\r\r\n',
    b'\x1b[28C \x1b[A\r\r\n',
    b'\x1b[29C\x08 \x1b[A\r\r\n',
    b'\x1b[29C-\x1b[A\r\r\n',
    b'\x1b[30C\x08-\x1b[A\r\r\n',
    b'\x1b[30C-\x1b[A\r\r\n',
    b'\x1b[31Cs\x1b[A\r\r\n',
    b'\x1b[32Cp\x1b[A\r\r\n',
    b'\x1b[33Ce\x1b[A\r\r\n',
    b'\x1b[34Cc\x1b[A\r\r\n',
    b'\x1b[35Cu\x1b[A\r\r\n',
    b'\x1b[36Cl\x1b[A\r\r\n',
    b'\x1b[37Ca\x1b[A\r\r\n',
    b'\x1b[38Ct\x1b[A\r\r\n',
    b'\x1b[39Ci\x1b[A\r\r\n',
    b'\x1b[40Cv\x1b[A\r\r\n',
    b'\x1b[41Ce\x1b[A\r\r\n',
    b'\x1b[42C-\x1b[A\r\r\n',
    b'\x1b[43Cd\x1b[A\r\r\n',
    b'\x1b[44Cr\x1b[A\r\r\n',
    b'\x1b[45Ca\x1b[A\r\r\n',
    b'\x1b[46Cf\x1b[A\r\r\n',
    b'\x1b[47Ct\x1b[A\r\r\n',
    b'\x1b[48C-\x1b[A\r\r\n',
    b'\x1b[49Cm\x1b[A\r\r\n',
    b'\x1b[50Co\x1b[A\r\r\n',
    b'\x1b[51Cd\x1b[A\r\r\n',
    b'\x1b[52Ce\x1b[A\r\r\n',
    b'\x1b[53Cl\x1b[A\r\r\n',
    b'\x1b[54C-\x1b[A\r\r\n',
    b'\x1b[55Cp\x1b[A\r\r\n',
    b'\x1b[56Ca\x1b[A\r\r\n',
    b'\x1b[57Ct\x1b[A\r\r\n',
    b'\x1b[58Ch\x1b[A\r\r\n',
    b'\x1b[59C \x1b[A\r\r\n',
    b'\x1b[60C\x08 \x1b[A\r\r\n',
    b'\x1b[60C/\x1b[A\r\r\n',
    b'\x1b[61Cbin/\x1b[A\r\r\n',
    b'\x1b[61C\x08/bin/\x1b[A\r\r\n',
    b'\x1b[61Cm\x1b[K\x1b[A\r\r\n',
    b'\x1b[62Cedia/\x1b[A\r\r\n',
    b'\x1b[62Co\x1b[K\x1b[A\r\r\n',
    b'\x1b[63C\x08\x08\x08/mo\x1b[A\r\r\n',
    b'\x1b[63Cd\x1b[A\r\r\n',
    b'\x1b[64Ce\x1b[A\r\r\n',
    b'\x1b[65Cl\x1b[A\r\r\n',
    b'\x1b[66Cs\x1b[A\r\r\n',
    b'\x1b[67C/\x1b[A\r\r\n',
    b'\x1b[68Ce\x1b[A\r\r\n',
    b'\x1b[69Ca\x1b[A\r\r\n',
    b'\x1b[70Cg\x1b[A\r\r\n',
    b'\x1b[71Cl\x1b[A\r\r\n',
    b'\x1b[72Ce\x1b[A\r\r\n',
    b'\x1b[73C3\x1b[A\r\r\n',
    b'\x1b[74C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c 'import s /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rxxxxxxxxxx\r\n",
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m3\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[22Ce\r\x1b[23C2freefrag \r\x1b[23C\x08e2freefrag \r\x1b[23Cc\x1b[K\r\x1b[24Cho \r\x1b[24Cho \r\x1b[25Co \r\x1b[26C\x08\x08\x08\x08echo \r\x1b[26C \r\x1b[27C\x08 \r\x1b[27C$\r\x1b[28CAWS_CA_BUNDLE \r\x1b[28C\x08$AWS_CA_BUNDLE \r\x1b[28Cs\x1b[K\r\x1b[29Ctatus \r\x1b[29C\x08\x08$status \r\x1b[29Ctatus \r\x1b[30Catus \r\x1b[31Ctus \r\x1b[32Cus \r\x1b[33Cs \r\x1b[34C\x1b[K\r\x1b[34C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo $status /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r3\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ce\r\x1b[19Ccho $status\r\x1b[19C\x08echo $status\r\x1b[19Cx\x1b[K\r\x1b[20C\x08\x08ex\r\x1b[20C \r\x1b[20Ci\r\x1b[21C\x08\x08\x08exi\r\x1b[21Ct \r\x1b[21Ct \r\x1b[22C\x08\x08\x08\x08exit \r\x1b[22C\x1b[K\r\x1b[22C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 06:17:05+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_command_typed_past_the_last_column_of_a_fish_prompt_is_read_whole(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH_WRAPPED)
    doc = analyze_path(path).to_json()
    calls = [(c["command"], c["exit_code"]) for c in doc["commands"]][1:]
    assert calls == [
        ("sleep 30", 130),
        ("python3 -c 'import sys; print(\"x\" * 10); sys.exit(3)' --model-path /models/target"
         " --speculative-draft-model-path /models/eagle3", 3),
        ("echo $status", 0),
        ("exit", None),
    ]
