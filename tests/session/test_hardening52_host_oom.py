"""The host, not the GPU, ran out of memory: the kernel's OOM killer ended the server (a target
loaded through CPU memory, a hidden-state dump held in RAM). ``dmesg``, ``journalctl`` and
``kubectl`` say so in their own words, and the server died of SIGKILL with no word of its own:
those lines were no error at all, and the session's one clue was lost. They are errors of kind
``host_oom`` (the fix is host memory, not a smaller batch on the GPU)."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors

KERNEL = ("[1234567.123456] Out of memory: Killed process 4321 (python3) total-vm:412345678kB, "
          "anon-rss:398765432kB, file-rss:0kB, shmem-rss:0kB, UID:0 pgtables:812345kB oom_score_adj:0")


@pytest.mark.parametrize("output", [
    KERNEL,
    "[ 8812.221] Memory cgroup out of memory: Killed process 4321 (python3) total-vm:4123kB, anon-rss:3987kB",
    "Dec 05 10:00:01 gpu01 systemd[1]: sglang.service: A process of this unit has been killed by the OOM killer.\n"
    "Dec 05 10:00:01 gpu01 systemd[1]: sglang.service: Failed with result 'oom-kill'.",
    "NAME       READY   STATUS      RESTARTS      AGE\nsglang-0   0/1     OOMKilled   3 (20s ago)   10m",
    '        "State": {\n            "Status": "exited",\n            "OOMKilled": true,\n            "ExitCode": 137,',
])
def test_the_hosts_oom_killer_is_an_error(output: str) -> None:
    (error,) = extract_errors(output, 0, False)
    assert error.kind == "host_oom"
    assert ("Killed process" in error.message or "OOM" in error.message)


@pytest.mark.parametrize("output", [
    '        "State": {\n            "Status": "running",\n            "OOMKilled": false,\n            "Dead": false,',
    "Dec 05 10:00:01 gpu01 systemd[1]: sglang.service: Main process exited, code=exited, status=0/SUCCESS",
    "[2026-03-02 10:00:00] KV Cache is allocated. #tokens: 412345, K size: 20.12 GB, V size: 20.12 GB",
    # the kernel's source read with grep (an agent searching for the message): no error of this host
    'mm/oom_kill.c:925:\tpr_err("%s: Killed process %d (%s) total-vm:%lukB, anon-rss:%lukB\\n",',
])
def test_lines_that_only_name_the_oom_killer_are_none(output: str) -> None:
    assert [e.kind for e in extract_errors(output, 0, False)] == []


def test_a_terminal_logs_dmesg_gives_the_host_its_oom(tmp_path: Path) -> None:
    path = tmp_path / "terminal.log"
    path.write_text("root@gpu01:~# curl -s localhost:30000/health\ncurl: (7) Failed to connect to localhost port 30000\n"
                    "root@gpu01:~# dmesg -T | tail -2\n" + KERNEL + "\n"
                    "[1234567.223456] oom_reaper: reaped process 4321 (python3), now anon-rss:0kB, file-rss:0kB\n")
    doc = analyze_path(path).to_json()
    assert [(e["kind"], e["host"]) for e in doc["errors"]] == [("connection", "gpu01"), ("host_oom", "gpu01")]
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("curl -s localhost:30000/health", True), ("dmesg -T | tail -2", False)]


@pytest.mark.parametrize(("output", "xid"), [
    ("[Sat Dec  5 10:00:01 2026] NVRM: Xid (PCI:0000:3b:00): 79, pid=4321, name=python3, GPU has fallen off the bus.", "Xid 79"),
    ("[ 1234.5] NVRM: Xid (0000:03:00): 31, Ch 00000028, engmask 00000101, intr 10000000", "Xid 31"),
    ("kernel: NVRM: Xid (PCI:0000:c1:00): 94, pid=881, name=python3, Contained: SM (0x1). RST: No, D-RST: No", "Xid 94"),
])
def test_the_drivers_xid_is_a_gpu_fault_named_by_its_number(output: str, xid: str) -> None:
    (error,) = extract_errors(output, 0, False)
    assert (error.kind, error.exception) == ("gpu_xid", xid)
    assert error.message.endswith(output.split("] ", 1)[-1]) or output.endswith(error.message)


def test_an_xid_named_in_prose_or_a_doc_grep_is_none() -> None:
    assert extract_errors("docs/xid.md:12:NVRM: Xid (PCI:0000:3b:00): 79 means the GPU fell off the bus", 0, False) == []


UVICORN = ("INFO:     Started server process [4321]\nINFO:     Waiting for application startup.\n"
           "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use\n"
           "INFO:     Waiting for application shutdown.\nINFO:     Application shutdown complete.\n")


def test_a_server_log_that_says_its_port_was_taken_is_an_error_when_read_with_status_0() -> None:
    # `tail server.log` read by an agent's tool (exit 0): the relaunch never listened, the old
    # server still answers on 30000 with the old flags
    (error,) = extract_errors(UVICORN, 0, False)
    assert (error.kind, error.message) == (
        "connection", "ERROR:    [Errno 98] error while attempting to bind on address ('0.0.0.0', 30000): address already in use")
    (error,) = extract_errors("OSError: [Errno 98] Address already in use", 0, False)
    assert (error.kind, error.exception) == ("connection", "OSError")
    assert extract_errors("sglang/srt/utils.py:512:    # the port may be in use: address already in use is retried", 0, False) == []
