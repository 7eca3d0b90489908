"""A test's sshd `extra_config` overrides the fixture's own defaults, as the test believes.

The fixture wrote its defaults (PasswordAuthentication no, AllowTcpForwarding yes, LogLevel
VERBOSE, SetEnv SHLVL=1, Subsystem sftp internal-sftp...) and then extra_config. sshd keeps
the FIRST value of most keywords (openssh-portable servconf.c: `if (*intptr == -1) *intptr =
value`), keeps only the first SetEnv line, and refuses to start on a second `Subsystem sftp`:
a test writing `AllowTcpForwarding no` got a bastion that forwards, and tested nothing.
`sshd -T` (the configuration sshd runs with) shows what a server really took.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.sshd_fixture import SSHD, ClientKey, SshServer, sshd_available

pytestmark = pytest.mark.skipif(not sshd_available(), reason="needs OpenSSH's sshd")


def _effective(server: SshServer) -> dict[str, list[str]]:
    """`sshd -T`'s lines for the server's config, keyword -> values (lower-case keywords)."""
    out = subprocess.run([SSHD, "-T", "-f", str(server.config_path)], capture_output=True, text=True, check=True).stdout
    taken: dict[str, list[str]] = {}
    for line in out.splitlines():
        keyword, _, value = line.partition(" ")
        taken.setdefault(keyword, []).append(value)
    return taken


@pytest.mark.parametrize(
    ("extra", "keyword", "value"),
    [
        ("PasswordAuthentication yes\n", "passwordauthentication", "yes"),
        ("AllowTcpForwarding no\n", "allowtcpforwarding", "no"),
        ("LogLevel DEBUG3\n", "loglevel", "DEBUG3"),
        ("permitrootlogin no\n", "permitrootlogin", "no"),
        ("MaxStartups 2\n", "maxstartups", "2:30:2"),
    ],
    ids=["password", "no-forwarding", "loglevel", "lower-case-keyword", "maxstartups"],
)
def test_a_global_line_of_extra_config_is_the_value_sshd_runs_with(
    tmp_path: Path, client_key: ClientKey, extra: str, keyword: str, value: str
) -> None:
    with SshServer(tmp_path / "sshd", [client_key], extra_config=extra) as server:
        assert _effective(server)[keyword] == [value], server.config_path.read_text()


def test_an_own_sftp_subsystem_replaces_the_default_one(tmp_path: Path, client_key: ClientKey) -> None:
    """A second `Subsystem sftp` line made sshd exit ("Subsystem 'sftp' already defined")."""
    with SshServer(tmp_path / "sshd", [client_key], extra_config="Subsystem sftp /bin/false\n") as server:
        assert _effective(server)["subsystem"] == ["sftp /bin/false"]


def test_a_setenv_of_extra_config_joins_the_default_one(tmp_path: Path, client_key: ClientKey) -> None:
    with SshServer(tmp_path / "sshd", [client_key], extra_config="SetEnv LAB=gpu\n") as server:
        assert _effective(server)["setenv"] == ["SHLVL=1", "LAB=gpu"]


def test_lines_that_add_and_match_blocks_keep_the_defaults(tmp_path: Path, client_key: ClientKey) -> None:
    """AcceptEnv adds to the default list, and a Match block overrides only for whom it matches:
    the global defaults stay (a Match line is no global override)."""
    extra = "AcceptEnv LANG\nMatch User nobody\n  PasswordAuthentication yes\n"
    with SshServer(tmp_path / "sshd", [client_key], extra_config=extra) as server:
        taken = _effective(server)
    assert taken["passwordauthentication"] == ["no"] and taken["acceptenv"] == ["LANG"]
    assert taken["port"] == [str(server.port)]
