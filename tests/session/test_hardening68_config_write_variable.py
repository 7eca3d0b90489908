"""A terminal log sets the config's path once (``export CFG=/etc/sglang/spec.yaml``) and appends
to it later (``echo 'speculative_num_steps: 3' >> $CFG``), restarts, and throughput rises: the
Resolution was empty, as the write's ``$CFG`` named no file (analysis reads hosts by such variables,
shell_variables, but the postmortem only expanded the ones the write's own line set). One shell
runs all the commands of a terminal log and still holds the value (bash(1), PARAMETERS); an
agent's tool call runs in a fresh shell (Claude Code: "Environment variables do NOT persist",
anthropics/claude-code#2508), so there the variable still names nothing."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer, _bench

BENCH = "python3 -m sglang.bench_serving --backend sglang --num-prompts 50 --port 30000"


def _log(set_it: str, write: str) -> str:
    return (f"$ {BENCH}\nOutput token throughput (tok/s): 54.8\n"
            f"$ {set_it}\n$ {write}\n$ sudo systemctl restart sglang\n"
            f"$ {BENCH}\nOutput token throughput (tok/s): 91.2\n")


@pytest.mark.parametrize("set_it, write", [
    ("export CFG=/etc/sglang/spec.yaml", "echo 'speculative_num_steps: 3' >> $CFG"),
    ("CFG=/root/serve/spec.yaml", "echo 'speculative_num_steps: 3' | tee -a ${CFG}"),
    ("D=/etc/sglang", "echo 'speculative_num_steps: 3' >> $D/spec.conf"),
])
def test_a_config_named_by_an_earlier_variable_is_the_change(tmp_path, set_it, write):
    path = tmp_path / "gpu.log"
    path.write_text(_log(set_it, write))
    assert postmortem_view(analyze_path(path))["resolution"] == [
        f"Throughput rose from 54.8 to 91.2 tok/s [msg 4] after `{write}` [msg 2], `sudo systemctl restart sglang` [msg 3]."]


@pytest.mark.parametrize("set_it", ["export CFG=/tmp/notes.txt", "export OTHER=/etc/sglang/spec.yaml"])
def test_a_variable_naming_no_config_is_still_no_change(tmp_path, set_it):
    path = tmp_path / "gpu.log"
    path.write_text(_log(set_it, "echo 'speculative_num_steps: 3' >> $CFG"))
    # the restart alone is told (hardening69: a service restart is a change), not the write
    assert postmortem_view(analyze_path(path))["resolution"] == [
        "Throughput rose from 54.8 to 91.2 tok/s [msg 4] after `sudo systemctl restart sglang` [msg 3]."]


def test_an_agent_call_does_not_see_the_variable_an_earlier_call_set(tmp_path):
    w = _Writer("s1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 throughput is low on this box, please fix it")
    w.bash(BENCH, _bench(54.8, 1.6))
    w.bash("export CFG=/etc/sglang/spec.yaml", "")
    w.bash("echo 'speculative_num_steps: 3' >> $CFG", "")
    w.bash("sudo systemctl restart sglang", "")
    w.bash(BENCH, _bench(91.2, 3.1))
    path = tmp_path / "s1.jsonl"
    path.write_text("\n".join(w.lines) + "\n")
    assert postmortem_view(analyze_path(path))["resolution"] == [
        "Throughput rose from 54.8 to 91.2 tok/s [msg 10] after `sudo systemctl restart sglang` [msg 7]."]
