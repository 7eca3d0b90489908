"""A background job that prints while fish waits at its prompt writes on the prompt's row, and fish
then redraws each key of the command typed on the row after that output, by column. ``python3
srv.py &`` printed "loading draft from /ckpt/eagle3" there, then ``sleep 2`` was typed. Before:
the job's line was read as the command typed and ``sleep 2`` was lost; now ``sleep 2`` is the
command, the job's line output, and the commands after are read as before. The typescript is a
fish 3.6.0 session (``fish --no-config``, TERM=xterm-256color) recorded with util-linux script
2.38.1, keys typed one at a time through a pty (fish's autosuggestions drawn as it is typed)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

FISH_JOB_PRINTS_AT_PROMPT = b"".join([
    b'Script started on 2026-12-06 06:07:26+00:00 [COMMAND="fish --no-config -i" TERM="xterm-256color" TTY="/dev/pts/0" COLUMNS="-1" LINES="-1"]\n',
    b'\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cc\r\x1b[19C\x08c\r\x1b[19C++ \r\x1b[19Cd\x1b[K\r\x1b[20C \r\x1b[20C\x08\x08cd \r\x1b[20C \r\x1b[21C\x08 \r\x1b[21C/\r\x1b[22C\x08/\r\x1b[22Cbin/\r\x1b[22Ct\x1b[K\r\x1b[23Cmp/\r\x1b[23Cmp/\r\x1b[24Cp/\r\x1b[25C/\r\x1b[26Cbaselines-scratch/\r\x1b[26Ct\x1b[K\r\x1b[27Cerminal2-scratch/\r\x1b[27Cerminal2-scratch/\r\x1b[28Crminal2-scratch/\r\x1b[29Cminal2-scratch/\r\x1b[30Cinal2-scratch/\r\x1b[31Cnal2-scratch/\r\x1b[32Cal2-scratch/\r\x1b[33Cl2-scratch/\r\x1b[34C5\x1b[K\r\x1b[35C-scratch/\r\x1b[35C-scratch/\r\x1b[36Cscratch/\r\x1b[37Ccratch/\r\x1b[38Cratch/\r\x1b[39Catch/\r\x1b[40Ctch/\r\x1b[41Cch/\r\x1b[42Ch/\r\x1b[43C/\r\x1b[44Crec/\r\x1b[44Crec/\r\x1b[45Cec/\r\x1b[46Cc/\r\x1b[47C\x1b[K\r\x1b[47C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;cd /tmp/terminal5-sc /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cp\r\x1b[19C\x08p\r\x1b[19Cager \r\x1b[19Cy\x1b[K\r\x1b[20C.test \r\x1b[20Ct\x1b[K\r\x1b[21Cest \r\x1b[21Ch\x1b[K\r\x1b[22Con \r\x1b[22Con \r\x1b[23Cn \r\x1b[24C\x08\x08\x08\x08\x08\x08python \r\x1b[24C3\r\x1b[25C \r\x1b[25C \r\x1b[26C\x08 \r\x1b[26Cs\r\x1b[27Crv.py \r\x1b[27C\x08srv.py \r\x1b[27Crv.py \r\x1b[28Cv.py \r\x1b[29C.py \r\x1b[30Cpy \r\x1b[31Cy \r\x1b[32C \r\x1b[33C\x08 \r\x1b[33C&\r\x1b[34C\x08&\r\x1b[34C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;python3 srv.py & /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cloading draft from /ckpt/eagle3\r\n',
    b's\r\x1b[19Canstats \r\x1b[19C\x08sanstats \r\x1b[19Cl\x1b[K\r\x1b[20Cabtop \r\x1b[20Ce\x1b[K\r\x1b[21Cep \r\x1b[21Cep \r\x1b[22Cp \r\x1b[23C\x08\x08\x08\x08\x08sleep \r\x1b[23C \r\x1b[24C\x08 \r\x1b[24C2\r\x1b[25C\x082\r\x1b[25C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;sleep 2 /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rTraceback (most recent call last):\r\n',
    b'  File "/tmp/terminal5-scratch/rec/srv.py", line 5, in <module>\r\n',
    b'    raise RuntimeError("CUDA out of memory. Tried to allocate 2.00 GiB")\r\n',
    b'RuntimeError: CUDA out of memory. Tried to allocate 2.00 GiB\r\n',
    b'\r\n',
    b"fish: Job 1, 'python3 srv.py &' has ended\r\n",
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18C\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Cn\r\x1b[19Camei \r\x1b[19C\x08namei \r\x1b[19Cv\x1b[K\r\x1b[20Ccc \r\x1b[20Ci\x1b[K\r\x1b[21Cd\r\x1b[22Ci\r\x1b[23Ca\r\x1b[24C-\r\x1b[25Cs\r\x1b[26Cm\r\x1b[27Ci\r\x1b[28C \r\x1b[29C\x08 \r\x1b[29C-\r\x1b[30C\x08-\r\x1b[30CL\r\x1b[31C \r\x1b[32C\x08 \r\x1b[32C2\r\x1b[33C\x082\r\x1b[33C>\r\x1b[34Cdrive.py \r\x1b[34C\x08\x082>drive.py \r\x1b[34C/\x1b[K\r\x1b[35Cbin/\r\x1b[35C\x08/bin/\r\x1b[35Cd\x1b[K\r\x1b[36Cev/\r\x1b[36C\x08\x08/dev/\r\x1b[36Cev/\r\x1b[37Cv/\r\x1b[38C\x08\x08\x08\x08/dev/\r\x1b[38C/\r\x1b[39Cbtrfs-control \r\x1b[39Cn\x1b[K\r\x1b[40Cet/\r\x1b[40C\x08\x08\x08\x08\x08\x08/dev/net/\r\x1b[40Cu\x1b[K\r\x1b[41Cll \r\x1b[41Cll \r\x1b[42Cl \r\x1b[43C;\r\x1b[44C\x08;\r\x1b[44C \r\x1b[45C\x08 \r\x1b[45Ce\r\x1b[46C2freefrag \r\x1b[46C\x08e2freefrag \r\x1b[46Cc\x1b[K\r\x1b[47Cho \r\x1b[47Cho \r\x1b[48Co \r\x1b[49C\x08\x08\x08\x08echo \r\x1b[49C \r\x1b[50C\x08 \r\x1b[50Cg\r\x1b[51C\x08g\r\x1b[51Cp\r\x1b[52Cu\r\x1b[53Cs\r\x1b[54C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;nvidia-smi -L 2>/dev /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rfish: Unknown command: nvidia-smi\r\n',
    b'gpus\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ce\r\x1b[19C\x08e\r\x1b[19C2freefrag \r\x1b[19Cx\x1b[K\r\x1b[20C\x08\x08ex\r\x1b[20C \r\x1b[20Ci\r\x1b[21C\x08\x08\x08exi\r\x1b[21Ct \r\x1b[21Ct \r\x1b[22C\x08\x08\x08\x08exit \r\x1b[22C\x1b[K\r\x1b[22C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-06 06:07:39+00:00 [COMMAND_EXIT_CODE="0"]\n',
])


def test_a_command_typed_after_a_jobs_output_on_a_fish_prompt_row_is_read(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(FISH_JOB_PRINTS_AT_PROMPT)
    doc = analyze_path(path).to_json()
    assert [c["command"] for c in doc["commands"]][1:] == [
        "cd /tmp/terminal5-scratch/rec", "python3 srv.py &", "sleep 2",
        "nvidia-smi -L 2>/dev/null; echo gpus", "exit"]
    assert {c["host"] for c in doc["commands"][1:]} == {"vm"}
    assert "cuda_oom" in {e["kind"] for e in doc["errors"]}
    assert "loading draft from /ckpt/eagle3" not in {c["command"] for c in doc["commands"]}
