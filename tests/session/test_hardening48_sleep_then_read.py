"""analyze: ``sleep 120; grep 'Decode batch' server.log`` reads the log after a wait.

Watching a fixed server under traffic, the on-call waits, then reads the decode stats in one
line. The line was kind "other" (its first program is ``sleep``), so the reading's command was
no log read in the phases and the timeline; a bare ``sleep 10`` stays "other".
"""

from __future__ import annotations

import pytest

from spec_debug.session.shell import categorize


@pytest.mark.parametrize(("command", "kind"), [
    ("ssh gpu01 'sleep 120; grep \"Decode batch\" /var/log/sglang/server.log | tail -n 3'", "logs"),
    ("sleep 60 && tail -n 50 /tmp/server.log", "logs"),
    ("cd /opt/sglang && sleep 5 && python -m sglang.bench_serving --backend sglang", "benchmark"),
    ("sleep 10", "other"),
])
def test_the_command_after_the_wait_names_the_kind(command, kind):
    assert categorize(command) == kind
