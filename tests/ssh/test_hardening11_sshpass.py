"""Password-only lab boxes reached the way `sshpass -e ssh HOST` reaches them: the password in
$SSHPASS (sshpass(1), -e). Before, spec-debug ignored it: under --batch such a host failed with
"the host would also take a password, which spec-debug does not use without one in the
inventory", though the user's shell held the password ssh(1) logs in with.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from spec_debug.errors import AuthenticationError
from spec_debug.runner.ssh import SSHTransport
from tests.ssh.h10_helpers import start_password_server
from tests.ssh.test_hardening10_passwords import PASSWORD, USER, run
from tests.sshd_fixture import ClientSetup


@pytest.fixture
def lab_box(client: ClientSetup, tmp_path: Path) -> Any:
    server = start_password_server(tmp_path / "pwbox", PASSWORD, extra_config="PubkeyAuthentication no\n")
    client.trust(server)
    client.alias("lab01", server, User=USER)
    yield server
    server.stop()


def test_the_sshpass_variable_logs_in_to_a_password_host(client: ClientSetup, lab_box: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SSHPASS", PASSWORD)
    with SSHTransport.connect("lab01", client.options()) as transport:
        assert run(transport, "id -un") == USER


def test_a_wrong_sshpass_says_where_the_password_came_from_and_never_shows_it(
    client: ClientSetup, lab_box: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SSHPASS", "not-the-password-42")
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("lab01", client.options())
    said = f"{info.value.message} {info.value.hint}"
    assert "refused the password from $SSHPASS (sshpass -e)" in said
    assert "not-the-password-42" not in said


def test_without_sshpass_a_batch_run_names_it_among_the_ways_to_give_the_password(client: ClientSetup, lab_box: Any) -> None:
    with pytest.raises(AuthenticationError) as info:
        SSHTransport.connect("lab01", client.options())
    assert "allowed: password" in info.value.message
    assert "export it as $SSHPASS (as for sshpass -e)" in (info.value.hint or "")
