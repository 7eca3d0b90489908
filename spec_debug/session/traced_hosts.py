"""Where a traced script's output ran: ``bash -x launch.sh`` typed at a prompt prints each command
it runs after PS4 (``+ ssh gpu02 python3 -m sglang.launch_server ...``; bash(1), ``set -x``), and
what follows the trace line of an ssh is the remote command's output, the host's, not the
prompt's. The log says so only there: a script run without ``-x`` keeps its prompt's host."""

from __future__ import annotations

import re

from spec_debug.session.shell import parse_target

_TRACE = re.compile(r"^\++ (?P<command>\S.*)$", re.M)
"""A line of bash's ``set -x`` trace (PS4 ``+ ``, one ``+`` more per level of nesting)."""


def traced_remote(output: str) -> tuple[str, str] | None:
    """``(host, before)`` when the last command a ``set -x`` trace in ``output`` shows ran on
    another host through ssh: that host, and the output before its trace line (the script's, on
    the prompt's host); else None."""
    last = None
    for last in _TRACE.finditer(output):
        pass
    if last is None:
        return None
    host = parse_target(last.group("command")).host
    return (host, output[:last.start()]) if host else None
