"""A PowerShell transcript (``Start-Transcript``) gives its session its times: the header's
``Start time:``, each ``Command start time:`` (``-IncludeInvocationHeader``) for the commands
after it, and the footer's ``End time:``, all ``yyyyMMddHHmmss`` local time. Before, the session
had no time at all (first and last timestamp null, no command dated). The header as Microsoft
Learn's JEA auditing page shows it (``Start time: 20160710144736``, ``Username: CONTOSO\\Alice``,
``Machine: SERVER01 (Microsoft Windows NT 10.0.14393.0)``) and as a transcript quoted in a public
write-up (``PowerShell_transcript.RESOLUTE.….20191203063201.txt``) has it, CRLF line ends."""

from __future__ import annotations

from spec_debug.session import analyze_path

STARS = "**********************"
LINES = [
    STARS, "Windows PowerShell transcript start", "Start time: 20160710144736", "Username: CONTOSO\\Alice",
    "RunAs User: CONTOSO\\Alice", "Machine: SERVER01 (Microsoft Windows NT 10.0.14393.0)",
    "Host Application: C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe", "Process ID: 2800",
    "PSVersion: 5.1.14393.2273", STARS,
    "Transcript started, output file is C:\\Users\\Alice\\Documents\\PowerShell_transcript.SERVER01.Xq1bZ3.20160710144736.txt",
    "PS C:\\Users\\Alice> nvidia-smi -L", "GPU 0: NVIDIA A100-SXM4-80GB (UUID: GPU-00000000)",
    STARS, "Command start time: 20160710145012", STARS,
    "PS C:\\Users\\Alice> python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct",
    "Traceback (most recent call last):", '  File "C:\\sgl\\launch_server.py", line 14, in <module>',
    "    import uvloop", "ModuleNotFoundError: No module named 'uvloop'",
    "PS C:\\Users\\Alice> Stop-Transcript", STARS, "Windows PowerShell transcript end", "End time: 20160710145530", STARS,
]


def test_a_powershell_transcript_gives_its_session_and_commands_their_times(tmp_path):
    path = tmp_path / "PowerShell_transcript.SERVER01.Xq1bZ3.20160710144736.txt"
    path.write_bytes(("\r\n".join(LINES) + "\r\n").encode("utf-8"))
    a = analyze_path(path)
    session = a.sessions[0]
    assert (session["first_timestamp"], session["last_timestamp"]) == ("2016-07-10T14:47:36", "2016-07-10T14:55:30")
    assert [(c.command[:20], c.timestamp) for c in a.commands] == [
        ("nvidia-smi -L", "2016-07-10T14:47:36"),
        ("python -m sglang.lau", "2016-07-10T14:50:12"),
        ("Stop-Transcript", "2016-07-10T14:50:12"),
    ]
    assert any(e.exception == "ModuleNotFoundError" for e in a.errors)
    # The header's Machine: is where the commands ran
    assert {c.host for c in a.commands} == {"server01"}
