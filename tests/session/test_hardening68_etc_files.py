"""`printf 'SPEC_STEPS=3\\n' > /etc/default/sglang` (the EnvironmentFile a systemd unit reads
its flags from), a restart, and a rise in throughput: the Resolution said nothing changed
("No change ... was followed by a rise"), because a file written through the shell was a
config only by its suffix (.yaml, .env, ...). A file under /etc is the host's configuration
whatever its name (FHS 3.0, 3.7)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.session.test_hardening68_config_variable import _resolution

_RESTART = "sudo systemctl restart sglang"


@pytest.mark.parametrize("change", [
    "printf 'SPEC_STEPS=3\\n' | sudo tee /etc/default/sglang",
    "echo 'SPEC_STEPS=3' > /etc/sysconfig/sglang",
    "echo 'Environment=SPEC_STEPS=3' >> /etc/systemd/system/sglang.service.d/override",
])
def test_a_file_written_under_etc_is_the_change(tmp_path: Path, change: str) -> None:
    assert _resolution(tmp_path, change, _RESTART) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{change}` [msg 3], `{_RESTART}` [msg 5]."]


def test_one_written_elsewhere_without_a_config_suffix_is_not(tmp_path: Path) -> None:
    # the restart is told (hardening69: a service restart is a change), the note is not
    assert _resolution(tmp_path, "echo 'SPEC_STEPS=3' > /root/notes", _RESTART) == [
        f"Throughput rose from 60.5 to 120.3 tok/s [msg 8] after `{_RESTART}` [msg 5]."]
