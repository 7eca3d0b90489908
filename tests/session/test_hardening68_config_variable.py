"""`CFG=/etc/sglang/spec.yaml; echo 'speculative_num_steps: 3' >> $CFG`, then a relaunch and a
rise in throughput: the postmortem's Resolution credited the relaunch alone, as if the config
were untouched. The file a shell writes through a variable the same line set is the one the
variable names (bash(1), PARAMETERS and EXPANSION: the assignment is seen by the commands after
it on the line); a redirection, tee or yq -i to it is a change of what is served."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.test_hardening67_install_folder import _BENCH, _BENCH_CMD, _session

_LAUNCH = "pkill -f sglang; python -m sglang.launch_server --config /etc/sglang/spec.yaml > /tmp/s.log 2>&1 &"


def _resolution(tmp_path: Path, change: str, launch: str = _LAUNCH) -> list[str]:
    """The Resolution of a benchmark, ``change``, ``launch`` and a benchmark that read more."""
    path = _session(tmp_path / "s.jsonl", [(_BENCH_CMD, _BENCH.format("60.5"), "/root"), (change, "", "/root"),
                                           (launch, "", "/root"), (_BENCH_CMD, _BENCH.format("120.3"), "/root")])
    return postmortem_view(analyze_path(path))["resolution"]


@pytest.mark.parametrize("change", [
    "CFG=/etc/sglang/spec.yaml; echo 'speculative_num_steps: 3' >> $CFG",
    "export CFG=/etc/sglang/spec.yaml && echo 'speculative_num_steps: 3' | sudo tee -a \"${CFG}\"",
    "CFG=/etc/sglang/spec.yaml; yq -i '.speculative_num_steps = 3' \"$CFG\"",
])
def test_a_config_written_through_a_variable_the_line_set_is_the_change(tmp_path: Path, change: str) -> None:
    assert _resolution(tmp_path, change) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{change}` [msg 3], `{_LAUNCH}` [msg 5]."]


@pytest.mark.parametrize("change", [
    "OUT=/tmp/spec.yaml; echo 'speculative_num_steps: 3' >> $OUT",  # a scratch file
    "echo 'speculative_num_steps: 3' >> $CFG",  # a variable the line did not set: unknown
    "CFG=/etc/sglang/spec.yaml; echo \"$CFG\" > /tmp/which.txt",
])
def test_what_it_does_not_name_is_no_change(tmp_path: Path, change: str) -> None:
    assert _resolution(tmp_path, change) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{_LAUNCH}` [msg 5]."]
