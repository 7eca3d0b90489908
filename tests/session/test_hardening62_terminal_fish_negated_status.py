"""After a job whose status is not its last command's (``not grep -q ERROR server.log``: grep's 0,
the job's 1; ``! true``), fish's default prompt shows the pipeline's statuses in brackets and then
the job's own: ``root@vm /t/t/rec [0] 1# `` (fish 3.6.0 ``share/functions/__fish_print_pipestatus.fish``
prints ``$last_status`` after the brackets where it is not ``$pipestatus[-1]``). Before: such a row was
no prompt, so the command typed there was lost (``python3 load.py``, whose failure went to the ``not
grep`` before it; ``echo $status``), and ``! true`` took the next prompt's 0. Now it is a prompt and
the command before it has the job's status. The typescript is a fish 3.6.0 session (``fish -N -i``)
recorded with util-linux script 2.38.1 in an 80-column pty, the keys typed through the pty."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

NEGATED = (
    b'Script started on 2026-12-06 08:15:55+00:00 [COMMAND="fish -N -i" TERM="xterm" TTY="/dev/pts/0" '
    b'COLUMNS="80" LINES="24"]\n\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r'
    b'\x1b[18Cn\r\x1b[19C\x08n\r\x1b[19Co\r\x1b[20Ct\r\x1b[21C\x08\x08\x08not\r\x1b[21C \r\x1b[22C\x08 \r\x1b[22Cg\r\x1b[23C\x08\x08\x08\x08\x08not g\r\x1b[23C++ \r\x1b[23Cr\x1b['
    b'K\r\x1b[24Cep \r\x1b[24Cep \r\x1b[25Cp \r\x1b[26C\x08\x08\x08\x08grep \r\x1b[26C \r\x1b[27C\x08 \r\x1b[27C-\r\x1b[28C\x08-\r\x1b[28Cq\r\x1b[29C \r\x1b[30C\x08 \r\x1b'
    b'[30CE\r\x1b[31C\x08E\r\x1b[31CR\r\x1b[32CR\r\x1b[33CO\r\x1b[34CR\r\x1b[35C \r\x1b[36C\x08 \r\x1b[36Cs\r\x1b[37Cerver.log \r\x1b[37C\x08server.log'
    b' \r\x1b[37Cerver.log \r\x1b[38Crver.log \r\x1b[39Cver.log \r\x1b[40Cer.log \r\x1b[41Cr.log \r\x1b[42C.log \r\x1b[43Clog \r\x1b[4'
    b'4Cog \r\x1b[45Cg \r\x1b[46C\x1b[K\r\x1b[46C\r\n\x1b[30m\x1b(B\x1b[m\x1b]0;not grep -q ERROR se /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b('
    b'B\x1b[m                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;'
    b'/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m0\x1b(B\x1b[m\x1b[31m]\x1b'
    b'(B\x1b[m \x1b[1m\x1b[31m1\x1b(B\x1b[m# \x1b[K\r\x1b[24Cp\r\x1b[25C\x08p\r\x1b[25Cy\r\x1b[26Ct\r\x1b[27Cest \r\x1b[27Ch\x1b[K\r\x1b[28Co\r\x1b[29Cn \r\x1b[29'
    b'Cn \r\x1b[30C\x08\x08\x08\x08\x08\x08python \r\x1b[30C3\r\x1b[31C \r\x1b[31C \r\x1b[32C\x08 \r\x1b[32Cl\r\x1b[33Coad.py \r\x1b[33C\x08load.py \r\x1b[33Coad.'
    b'py \r\x1b[34Cad.py \r\x1b[35Cd.py \r\x1b[36C.py \r\x1b[37Cpy \r\x1b[38Cy \r\x1b[39C\x1b[K\r\x1b[39C\r\n\x1b[30m\x1b(B\x1b[m\x1b]0;python3 loa'
    b'd.py /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rloading draft\r\nError: could not load draft\r\n\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m             '
    b'                                                                  \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B'
    b'\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m1\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r'
    b'\x1b[22Cs\r\x1b[23C\x08s\r\x1b[23Canstats \r\x1b[23Ce\x1b[K\r\x1b[24Cd \r\x1b[24Ct\x1b[K\r\x1b[25C\x08\x08\x08set\r\x1b[25C \r\x1b[25C \r\x1b[26C\x08 \r\x1b[26C'
    b'o\r\x1b[27C\x08o\r\x1b[27Cu\r\x1b[28Ct\r\x1b[29C \r\x1b[30C\x08 \r\x1b[30C(\r\x1b[31C\x08(\r\x1b[31Cf\r\x1b[32C\x08f\r\x1b[32C2py \r\x1b[32Ca\x1b[K\r\x1b[33Cct'
    b'or \r\x1b[33Cl\x1b[K\r\x1b[34Clocate \r\x1b[34Cs\x1b[K\r\x1b[35Ce \r\x1b[35Ce \r\x1b[36C\x08\x08\x08\x08\x08false \r\x1b[36C)\r\x1b[37C\x08)\r\x1b[37C\r\n\x1b[30'
    b'm\x1b(B\x1b[m\x1b]0;set out (false) /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                   '
    b'                                            \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m'
    b' /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m1\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[22Ch\r\x1b[23C\x08h\r\x1b[23C2p'
    b'h \r\x1b[23Co\x1b[K\r\x1b[24Cstid \r\x1b[24Cstid \r\x1b[25Ctid \r\x1b[26Cn\x1b[K\r\x1b[27Came \r\x1b[27Came \r\x1b[28Cme \r\x1b[29Ce \r\x1b[30'
    b'C\x08\x08\x08\x08\x08\x08\x08\x08hostname \r\x1b[30C\x1b[K\r\x1b[30C\r\n\x1b[30m\x1b(B\x1b[m\x1b]0;hostname /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\rvm\r\n\x1b[2m\xe2\x8f\x8e\x1b(B\x1b['
    b'm                                                                               \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/'
    b't/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18C!\r\x1b[19C\x08!\r\x1b[19C \r\x1b[20C\x08 \r\x1b[2'
    b'0Ct\r\x1b[21C\x08\x08\x08! t\r\x1b[21Cr\r\x1b[22C\x08\x08tr\r\x1b[22Cu\r\x1b[23C\x08\x08\x08tru\r\x1b[23Ce\r\x1b[24C\x08\x08\x08\x08true\r\x1b[24C\r\n\x1b[30m\x1b(B\x1b[m\x1b]0;!'
    b' true /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                        '
    b'                       \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m'
    b' \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m0\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m \x1b[1m\x1b[31m1\x1b(B\x1b[m# \x1b[K\r\x1b[24Ce\r\x1b[25C2freefrag \r\x1b[25C\x08e2f'
    b'reefrag \r\x1b[25Cc\x1b[K\r\x1b[26Cho \r\x1b[26Cho \r\x1b[27Co \r\x1b[28C\x08\x08\x08\x08echo \r\x1b[28C \r\x1b[29C\x08 \r\x1b[29C$\r\x1b[30C\x08$\r\x1b[30CA'
    b'WS_CA_BUNDLE \r\x1b[30Cs\x1b[K\r\x1b[31Ctatus \r\x1b[31C\x08\x08$status \r\x1b[31Ctatus \r\x1b[32Catus \r\x1b[33Ctus \r\x1b[34Cus \r\x1b['
    b'35Cs \r\x1b[36C\x1b[K\r\x1b[36C\r\n\x1b[30m\x1b(B\x1b[m\x1b]0;echo $status /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r1\r\n\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m         '
    b'                                                                      \r\xe2\x8f\x8e \r\x1b[K\x1b]0;/t/t/rec\x07\x1b[30'
    b'm\x1b(B\x1b[mroot\x1b(B\x1b[m@vm\x1b(B\x1b[m /t/t/rec\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r\x1b[18Ce\r\x1b[19Ccho $status\r\x1b[19C\x08echo $status\r'
    b'\x1b[19Cx\x1b[K\r\x1b[20C\x08\x08ex\r\x1b[20C \r\x1b[20Ci\r\x1b[21C\x08\x08\x08exi\r\x1b[21Ct \r\x1b[21Ct \r\x1b[22C\x08\x08\x08\x08exit \r\x1b[22C\x1b[K\r\x1b[22C\r\n\x1b[3'
    b'0m\x1b(B\x1b[m\x1b]0;exit /t/t/rec\x07\x1b[30m\x1b(B\x1b[m\r\x1b[30m\x1b(B\x1b[m\nScript done on 2026-12-06 08:16:02+00:00 [COMM'
    b'AND_EXIT_CODE="0"]\n'
)


def test_the_command_after_a_negated_job_is_read_with_its_status(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(NEGATED)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["exit_code"]) for c in doc["commands"] if c["host"] == "vm"] == [
        ("not grep -q ERROR server.log", 1),
        ("python3 load.py", 1),
        ("set out (false)", 1),
        ("hostname", 0),
        ("! true", 1),
        ("echo $status", 0),
        ("exit", None),
    ]
    assert "Error: could not load draft" in [e["message"] for e in doc["errors"]]
    loaded = [c for c in doc["commands"] if c["command"] == "python3 load.py"]
    assert [(c["is_error"], c["exit_code"]) for c in loaded] == [(True, 1)]
