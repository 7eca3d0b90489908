"""A background job a signal other than SIGKILL, SIGTERM, SIGSEGV or SIGABRT ended (``[1]   Bus
error               python3 ...``, the SIGBUS a too small /dev/shm gives PyTorch's workers in a
container; ``Interrupt``, ``Hangup``, ``Floating point exception``), or one that dumped core
(``[1]+  Segmentation fault      (core dumped) python3 ...``), was no job end: its command kept no
status and no failure. bash writes the C library's description of the signal, pads it to 24
columns (none left after "Floating point exception", so the command follows at once), then
``(core dumped) `` (bash jobs.c ``print_pipeline``, ``LONGEST_SIGNAL_DESC``); the old pattern
allowed no padding before ``(core dumped)`` and no signal but four. The logs are real
recordings: bash 5.2.15 under util-linux script 2.38.1, and zsh 5.9, whose own lower-case
messages (``[1]    bus error  sleep 101``, ``segmentation fault (core dumped)``) were missed too."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

SIGNALS = (
    b'Script started on 2026-12-07 07:35:42+00:00 [COMMAND="bash --norc -i" <not executed on terminal>]\n'
    b'sleep 101 &\r\n'
    b'sleep 102 &\r\n'
    b'sleep 103 &\r\n'
    b'sleep 104 &\r\n'
    b'kill -BUS %1\r\n'
    b'kill -INT %2\r\n'
    b'kill -HUP %3\r\n'
    b'kill -FPE %4\r\n'
    b'sleep 0.5\r\n'
    b'echo after\r\n'
    b'exit\r\n'
    b'root@vm:~# sleep 101 &\r\n'
    b'[1] 1587\r\n'
    b'root@vm:~# sleep 102 &\r\n'
    b'[2] 1588\r\n'
    b'root@vm:~# sleep 103 &\r\n'
    b'[3] 1589\r\n'
    b'root@vm:~# sleep 104 &\r\n'
    b'[4] 1590\r\n'
    b'root@vm:~# kill -BUS %1\r\n'
    b'root@vm:~# kill -INT %2\r\n'
    b'root@vm:~# kill -HUP %3\r\n'
    b'root@vm:~# kill -FPE %4\r\n'
    b'root@vm:~# sleep 0.5\r\n'
    b'[1]   Bus error               sleep 101\r\n'
    b'[2]   Interrupt               sleep 102\r\n'
    b'[3]-  Hangup                  sleep 103\r\n'
    b'[4]+  Floating point exceptionsleep 104\r\n'
    b'root@vm:~# echo after\r\n'
    b'after\r\n'
    b'root@vm:~# exit\r\n'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:35:43+00:00 [COMMAND_EXIT_CODE="0"]\n')

CORE_DUMPED = (
    b'Script started on 2026-12-07 07:36:07+00:00 [COMMAND="bash --norc -i" <not executed on terminal>]\n'
    b'ulimit -c unlimited\r\n'
    b'sleep 105 &\r\n'
    b'kill -SEGV %1\r\n'
    b'sleep 0.5\r\n'
    b'sleep 106 &\r\n'
    b'kill -ABRT %1\r\n'
    b'sleep 0.5\r\n'
    b'echo after\r\n'
    b'exit\r\n'
    b'root@vm:~# ulimit -c unlimited\r\n'
    b'root@vm:~# sleep 105 &\r\n'
    b'[1] 3458\r\n'
    b'root@vm:~# kill -SEGV %1\r\n'
    b'root@vm:~# sleep 0.5\r\n'
    b'[1]+  Segmentation fault      (core dumped) sleep 105\r\n'
    b'root@vm:~# sleep 106 &\r\n'
    b'[1] 3531\r\n'
    b'root@vm:~# kill -ABRT %1\r\n'
    b'root@vm:~# sleep 0.5\r\n'
    b'[1]+  Aborted                 (core dumped) sleep 106\r\n'
    b'root@vm:~# echo after\r\n'
    b'after\r\n'
    b'root@vm:~# exit\r\n'
    b'exit\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:36:09+00:00 [COMMAND_EXIT_CODE="0"]\n')


ZSH = (
    b'Script started on 2026-12-07 07:37:15+00:00 [COMMAND="zsh -f -i" <not executed on terminal>]\n'
    b'sleep 101 &\r\n'
    b'sleep 102 &\r\n'
    b'sleep 103 &\r\n'
    b'kill -BUS %1\r\n'
    b'kill -HUP %2\r\n'
    b'kill -FPE %3\r\n'
    b'sleep 0.5\r\n'
    b'ulimit -c unlimited\r\n'
    b'sleep 105 &\r\n'
    b'kill -SEGV %4\r\n'
    b'sleep 0.5\r\n'
    b'echo after\r\n'
    b'exit\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 101 &\x1b[?2004l\r'
    b'\r\n'
    b'[1] 6349\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 102 &\x1b[?2004l\r'
    b'\r\n'
    b'[2] 6350\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 103 &\x1b[?2004l\r'
    b'\r\n'
    b'[3] 6351\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hkill -BUS %1\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hkill -HUP %2\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hkill -FPE %3\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 0.5\x1b[?2004l\r'
    b'\r\n'
    b'[1]    bus error  sleep 101\r\n'
    b'[3]  + floating point exception  sleep 103\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hulimit -c unlimited\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 105 &\x1b[?2004l\r'
    b'\r\n'
    b'[1] 6353\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hkill -SEGV %4\x1b[?2004l\r'
    b'\r\n'
    b'kill: %4: no such job\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 0.5\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hecho after\x1b[?2004l\r'
    b'\r\n'
    b'after\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hexit\x1b[?2004l\r'
    b'\r\n'
    b'zsh: you have running jobs.\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004h\x1b[?2004l\r'
    b'\r\n'
    b'zsh: warning: 2 jobs SIGHUPed\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:37:17+00:00 [COMMAND_EXIT_CODE="0"]\n')

ZSH_CORE_DUMPED = (
    b'Script started on 2026-12-07 07:37:23+00:00 [COMMAND="zsh -f -i" <not executed on terminal>]\n'
    b'ulimit -c unlimited\r\n'
    b'sleep 105 &\r\n'
    b'kill -SEGV %1\r\n'
    b'sleep 0.5\r\n'
    b'sleep 106 &\r\n'
    b'kill -INT %1\r\n'
    b'sleep 0.5\r\n'
    b'echo after\r\n'
    b'exit\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hulimit -c unlimited\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 105 &\x1b[?2004l\r'
    b'\r\n'
    b'[1] 6629\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hkill -SEGV %1\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 0.5\x1b[?2004l\r'
    b'\r\n'
    b'[1]  + segmentation fault (core dumped)  sleep 105\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 106 &\x1b[?2004l\r'
    b'\r\n'
    b'[1] 6682\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hkill -INT %1\x1b[?2004l\r'
    b'\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hsleep 0.5\x1b[?2004l\r'
    b'\r\n'
    b'[1]  + interrupt  sleep 106\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hecho after\x1b[?2004l\r'
    b'\r\n'
    b'after\r\n'
    b'#                                                                              \r'
    b' \r'
    b'\r'
    b'vm# \x1b[?2004hexit\x1b[?2004l\r'
    b'\r\n'
    b'\n'
    b'Script done on 2026-12-07 07:37:24+00:00 [COMMAND_EXIT_CODE="0"]\n')


def _jobs(tmp_path: Path, data: bytes) -> tuple[list, list]:
    path = tmp_path / "session.log"
    path.write_bytes(data)
    doc = analyze_path(path).to_json()
    jobs = [(c["command"], c["exit_code"], c["is_error"]) for c in doc["commands"] if c["command"].endswith("&")]
    return jobs, [(e["kind"], e["exception"]) for e in doc["errors"]]


def test_a_job_any_signal_ended(tmp_path: Path) -> None:
    assert _jobs(tmp_path, SIGNALS) == (
        [("sleep 101 &", 135, True), ("sleep 102 &", 130, True), ("sleep 103 &", 129, True), ("sleep 104 &", 136, True)],
        [("signal", "SIGBUS"), ("signal", "SIGINT"), ("signal", "SIGHUP"), ("signal", "SIGFPE")])


def test_a_job_that_dumped_core(tmp_path: Path) -> None:
    assert _jobs(tmp_path, CORE_DUMPED) == (
        [("sleep 105 &", 139, True), ("sleep 106 &", 134, True)], [("signal", "SIGSEGV"), ("signal", "SIGABRT")])


def test_zsh_says_so_in_its_own_words(tmp_path: Path) -> None:
    # (zsh reported no end of the job `kill -HUP` hit; the last `kill -SEGV %4` named no job)
    assert _jobs(tmp_path, ZSH)[0] == [
        ("sleep 101 &", 135, True), ("sleep 102 &", None, False), ("sleep 103 &", 136, True), ("sleep 105 &", None, False)]
    assert _jobs(tmp_path, ZSH_CORE_DUMPED) == (
        [("sleep 105 &", 139, True), ("sleep 106 &", 130, True)], [("signal", "SIGSEGV"), ("signal", "SIGINT")])
