"""A command of several lines pasted at a fish prompt stays one command line (the newlines kept, no
Enter) until Enter runs it all; fish redraws its lines with cursor moves up and across, never
each on a row of its own. Before: only the first pasted line was read as the command and the
others were lost (read as its output); now the command is the lines, newline-separated, as a
paste at a bash or zsh prompt reads, and its output is what follows. The typescript is a fish
3.6.0 session (``fish --no-config``, TERM=xterm-256color) recorded with util-linux script
2.38.1, the pastes sent as bracketed pastes through a pty, then Enter."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FISH_PASTES = b"".join([
    b'Script started on 2026-12-06 06:14:48+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b'\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cc\r\x1b[19C\x08c\r\x1b[19C++ \r\x1b[19Cd\x1b[K\r\x1b[20C\x08\x08cd\r\x1b[20C \r\x1b[20C \r\x1b[21C\x08 \r\x1b[21C/\r\x1b[22Cbin/\r\x1b[22C\x08/bin/\r\x1b[22Ct\x1b[K\r\x1b[23Cmp/\r\x1b[23Cmp/\r\x1b[24Cp/\r\x1b[25C/\r\x1b[26Cbaselines-scratch/\r\x1b[26Ct\x1b[K\r\x1b[27Cerminal2-scratch/\r\x1b[27Cerminal2-scratch/\r\x1b[28Crminal2-scratch/\r\x1b[29Cminal2-scratch/\r\x1b[30Cinal2-scratch/\r\x1b[31Cnal2-scratch/\r\x1b[32Cal2-scratch/\r\x1b[33Cl2-scratch/\r\x1b[34C5\x1b[K\r\x1b[35C-scratch/\r\x1b[35C-scratch/\r\x1b[36Cscratch/\r\x1b[37Ccratch/\r\x1b[38Cratch/\r\x1b[39Catch/\r\x1b[40Ctch/\r\x1b[41Cch/\r\x1b[42Ch/\r\x1b[43C/\r\x1b[44Crec/\r\x1b[44Crec/\r\x1b[45Cec/\r\x1b[46Cc/\r\x1b[47C\x1b[K\r\x1b[47C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;cd /tmp/terminal5-sc /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cecho one\r\x1b[26C\r\n',
    b'\x1b[K\x1b[A\r\n',
    b'\x1b[18Cecho two\x1b[A\r\r\n',
    b'\x1b[26C\r\n',
    b'\x1b[K\x1b[A\x1b[A\r\n',
    b'\r\n',
    b'\x1b[18C\x1b[A\x1b[Aecho one\r\n',
    b'\x1b[18Cecho two\x1b[A\r\r\n',
    b'\r\n',
    b'\x1b[18C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;echo one echo two  /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rone\r\n',
    b'two\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cls models/eagle3\r\x1b[34C\r\n',
    b'\x1b[K\x1b[A\r\n',
    b'\x1b[18Cecho done\x1b[A\r\r\n',
    b'\x1b[27C\x1b[A\x1b[9Dls models/eagle3\r\n',
    b'\x1b[18Cecho done\x1b[A\r\r\n',
    b'\x1b[27C\r\n',
    b"\x1b[30m\x1b(B\x1b[m\x1b]0;ls models/eagle3 ech /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rls: cannot access 'models/eagle3': No such file or directory\r\n",
    b'done\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ce\r\x1b[19C\x08e\r\x1b[19C2freefrag \r\x1b[19Cx\x1b[K\r\x1b[20C\x08\x08ex\r\x1b[20C \r\x1b[20Ci\r\x1b[21C\x08\x08\x08exi\r\x1b[21Ct \r\x1b[21Ct \r\x1b[22C\x08\x08\x08\x08exit \r\x1b[22C\x1b[K\r\x1b[22C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 06:14:55+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_lines_pasted_at_a_fish_prompt_are_one_command(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH_PASTES)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]][1:] == [
        "cd /tmp/terminal5-scratch/rec", "echo one\necho two", "ls models/eagle3\necho done", "exit"]
    assert {c["host"] for c in doc["commands"][1:]} == {"vm"}
