"""Where a traced script's output ran: ``bash -x launch.sh`` typed at a prompt prints each command
it runs after PS4 (``+ ssh gpu02 python3 -m sglang.launch_server ...``; bash(1), ``set -x``), and
what follows the trace line of an ssh, up to the next trace line, is the remote command's output,
the host's, not the prompt's (``zsh -x``: ``+launch.sh:2> ssh gpu02 ...``). The log says so only
there: a script run without ``-x`` keeps its prompt's host."""

from __future__ import annotations

import re
from collections.abc import Callable

from spec_debug.session.shell import parse_target

TRACE_LEAD = r"^\+(?:\++ |[\w./-]+:\d+> | )"
"""How a ``set -x`` trace line starts: bash's PS4 ``+ `` (one ``+`` more per level of nesting),
zsh's ``+%N:%i> `` (``+launch.sh:2> ssh gpu02 ...``; zshparam(1), PS4), as formats.text_log reads
them."""
_TRACE = re.compile(TRACE_LEAD + r"(?P<command>\S.*)$", re.M)


def traced_error_host(output: str, has_errors: Callable[[str], bool]) -> str | None:
    """The host whose output holds the first error of a ``set -x`` trace's ``output`` (by
    ``has_errors``): the ssh's host when that error follows an ssh's trace line before the next
    trace line (``+ ssh gpu02 python3 ...``, its traceback, then ``+ echo done``), None when it is
    the script's own (before the first trace line, or after a local command's). With no error,
    the last traced command's host, as when it is an ssh: what the script printed last
    (a benchmark's numbers) came from there."""
    stretches: list[tuple[str | None, int, int]] = []  # (host, start, end): runs of one host merged
    host: str | None = None
    start = 0
    for m in _TRACE.finditer(output):
        now = parse_target(m.group("command")).host if "ssh" in m.group("command") else None
        if now != host:
            stretches.append((host, start, m.start()))
            host, start = now, m.end()
    if not stretches:
        return None  # no ssh traced: all ran here (and the output is not scanned again)
    stretches.append((host, start, len(output)))
    for where, begin, end in stretches:
        if begin < end and has_errors(output[begin:end]):
            return where
    return stretches[-1][0]
