"""The lines PowerShell's ``Start-Transcript`` writes around and inside a transcript: when it
started, when each command started (``-IncludeInvocationHeader``) and when it ended.

The header, as Microsoft Learn shows it (``about_Start-Transcript``; JEA session transcripts in
"JEA Auditing and Reporting") and real transcripts quote it::

    **********************
    Windows PowerShell transcript start        (PowerShell 6+: "PowerShell transcript start")
    Start time: 20191203063201                 local time, yyyyMMddHHmmss
    Username: MEGABANK\\ryan
    Machine: RESOLUTE (Microsoft Windows NT 10.0.14393.0)
    …
    **********************
    Command start time: 20191203063455
    **********************
    PS C:\\Users\\ops> nvidia-smi
    …
    **********************
    Windows PowerShell transcript end
    End time: 20191203063515
    **********************

Read as a plain shell log, the session had no time at all.
"""

from __future__ import annotations

import re
from datetime import datetime

_BANNER = re.compile(r"^(?:Windows )?PowerShell transcript (start|end)\s*$")
_TIME = re.compile(r"^(Start|End|Command start) time: (\d{14})\s*$")
_MACHINE = re.compile(r"^Machine\s*: ([A-Za-z0-9][A-Za-z0-9._-]*) \(")


def machine(line: str) -> str | None:
    """The computer a ``Machine: NAME (OS)`` header line names, lower-cased (a NetBIOS name is
    written in capitals; ``ssh gpu01`` elsewhere names the same host)."""
    m = _MACHINE.match(line.strip())
    return m.group(1).lower() if m else None


def is_banner(line: str) -> bool:
    return _BANNER.match(line.strip()) is not None


def time_line(line: str) -> tuple[str, str] | None:
    """``(which, ISO local time)`` of a ``Start time:``, ``Command start time:`` or ``End time:``
    line (which: ``Start``, ``Command start`` or ``End``), or None."""
    m = _TIME.match(line.strip())
    if m is None:
        return None
    try:
        moment = datetime.strptime(m.group(2), "%Y%m%d%H%M%S")
    except ValueError:
        return None
    return m.group(1), moment.isoformat(timespec="seconds")
