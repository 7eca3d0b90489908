"""A host name holding a byte that is not UTF-8 (`--host $'h\\xe9'`, a Latin-1 name pasted from
an old inventory) fails as a name that cannot be resolved, said in the form the run's record
uses for that byte.

Python's argv holds such a byte as a lone surrogate (PEP 383), which the idna encoding before
the lookup refuses as an "Invalid character". The host's error quoted the name with repr(), so
run.json and the terminal said `h\\xe9: cannot resolve host name 'h\\udce9'` (two forms of one
name on one line, the second naming no byte), and gave the reason of an empty or over-long
dot-separated part, sending the user to count dots. ssh(1) says "Could not resolve hostname
h\\351" (OpenSSH 9.2p1, run on this machine).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: t\nsteps:\n  - id: hello\n    run: echo hello\n"
_SAID = "cannot resolve host name 'h\\xe9' (not a valid host name: it holds the byte \\xe9, which is not UTF-8)"


def _run(cli: Callable[..., Any], client: ClientSetup, tmp_path: Path, *hosts: str) -> tuple[Any, dict[str, Any]]:
    playbook = tmp_path / "t.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = cli("run", str(playbook), *[a for h in hosts for a in ("--host", h)], "-F", str(client.config), "--batch",
                 "--out", str(out), timeout=120)
    assert_clean_cli(result)
    assert result.code == 3, result.stdout + result.stderr
    return result, load_run(out)[1]


def test_a_name_with_a_latin1_byte_is_said_as_the_record_shows_it(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    result, record = _run(cli, client, tmp_path, "target", "h\udce9")
    errors = {h["name"]: h["error"] for h in record["hosts"]}
    assert errors["target"] is None and by_id(record, "target")["hello"]["status"] == "passed"
    assert errors["h\\xe9"] == f"h\\xe9: {_SAID}", errors
    assert f"h\\xe9: {_SAID}" in result.stderr, result.stderr
    assert "udce9" not in result.stderr and "63 characters" not in result.stderr, result.stderr


def test_a_canonicalized_name_with_a_latin1_byte_is_said_the_same_way(
    cli: Callable[..., Any], client: ClientSetup, tmp_path: Path
) -> None:
    # CanonicalizeHostname looks NAME.DOMAIN up while the config is read (paramiko's
    # canonicalize): the other place the name's idna encoding fails.
    client.config.write_text("Host h*\n  CanonicalizeHostname yes\n  CanonicalDomains lab.invalid\n" + client.config.read_text())
    _, record = _run(cli, client, tmp_path, "target", "h\udce9")
    errors = {h["name"]: h["error"] for h in record["hosts"]}
    assert errors["target"] is None
    assert errors["h\\xe9"] == f"h\\xe9: {_SAID}", errors
