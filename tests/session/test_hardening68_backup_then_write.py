"""`cp /etc/sglang/spec.yaml /etc/sglang/spec.yaml.bak && echo 'num_steps: 3' >>
/etc/sglang/spec.yaml` (a backup, then the edit: the usual way to change a config by hand), a
relaunch, and a rise in throughput: the Resolution credited the relaunch alone. The test of a
shell write to a config read only the first change host_changes named (the backup's cp), not
the redirection after it; every file the line writes is read now."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.session.test_hardening68_config_variable import _resolution as _resolution_after

_LAUNCH = "pkill -f sglang; python -m sglang.launch_server --config /srv/spec.yaml > /tmp/s.log 2>&1 &"
_SPEC = "/srv/spec.yaml"


def _resolution(tmp_path: Path, change: str) -> list[str]:
    return _resolution_after(tmp_path, change, _LAUNCH)


@pytest.mark.parametrize("change", [
    f"cp {_SPEC} {_SPEC}.bak && echo 'num_steps: 3' >> {_SPEC}",
    f"sudo cp {_SPEC} {_SPEC}.orig; echo 'num_steps: 3' | sudo tee -a {_SPEC}",
    f"mkdir -p /root/backup && cp {_SPEC} /root/backup/ && echo 'num_steps: 3' >> {_SPEC}",
])
def test_a_write_after_a_backup_is_the_change(tmp_path: Path, change: str) -> None:
    assert _resolution(tmp_path, change) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{change}` [msg 3], `{_LAUNCH}` [msg 5]."]


@pytest.mark.parametrize("change", [
    f"cp {_SPEC} {_SPEC}.bak && grep num_steps {_SPEC} > /tmp/steps.txt",  # a backup and a look
    f"cp {_SPEC} {_SPEC}.bak",
])
def test_a_backup_alone_is_no_change(tmp_path: Path, change: str) -> None:
    assert _resolution(tmp_path, change) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{_LAUNCH}` [msg 5]."]
