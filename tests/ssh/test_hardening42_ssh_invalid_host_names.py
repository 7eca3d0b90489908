"""A host name with an empty or over-long label (`gpu..lab`, a name pasted twice into a
HostName) is a host that cannot be resolved, named as such, and the other hosts run.

Python encodes a name with the idna codec before the lookup (socket.getaddrinfo), which refuses
such a label with a UnicodeError. It escaped the connect as "internal error: UnicodeError:
encoding with 'idna' codec failed (UnicodeError: label empty or too long)", naming neither the
host nor its name, where ssh(1) says "Could not resolve hostname gpu..lab". The same for a jump
host of that name, and for a BindAddress of one.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

from tests.ssh.test_fleet_faults import assert_clean_cli, by_id, load_run
from tests.sshd_fixture import ClientSetup, SshServer

PLAYBOOK = "name: t\nsteps:\n  - id: hello\n    run: echo hello\n"

_LONG = "g" * 64 + ".lab"
_BAD = {"typo": "gpu..lab", "pasted": _LONG, "leading": ".gpu01.lab"}


def test_a_name_with_an_empty_or_long_label_is_unresolvable_and_the_fleet_runs(
    cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path
) -> None:
    for alias, hostname in _BAD.items():
        client.hosts[alias] = {"HostName": hostname, "IdentityFile": str(client.key.path), "IdentitiesOnly": "yes"}
    client.alias("viajump", sshd, ProxyJump="typo")
    client.alias("bound", sshd, BindAddress="lo..cal")
    playbook = tmp_path / "t.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    hosts = ["target", *_BAD, "viajump", "bound", "ops@" + "x" * 70]
    result = cli("run", str(playbook), *[a for h in hosts for a in ("--host", h)], "-F", str(client.config), "--batch",
                 "--out", str(out), timeout=120)
    assert_clean_cli(result)
    assert result.code == 3, result.stdout + result.stderr
    _, record = load_run(out)
    errors = {h["name"]: h["error"] for h in record["hosts"]}
    assert by_id(record, "target")["hello"]["status"] == "passed"
    assert errors["target"] is None
    unresolvable = {**_BAD, "ops@" + "x" * 70: "x" * 70}
    for name, hostname in unresolvable.items():
        error = errors[name]
        assert error is not None and "internal error" not in error and "UnicodeError" not in error, error
        assert error.startswith(f"{name.split('@')[-1]}: cannot resolve host name {hostname!r} ("), error
    assert "internal error" not in errors["viajump"] and errors["viajump"].startswith(
        "viajump: jump host typo: cannot resolve host name 'gpu..lab' ("), errors["viajump"]
    assert "internal error" not in errors["bound"] and errors["bound"].startswith("bound: cannot connect from BindAddress lo..cal"), errors["bound"]
    assert "internal error" not in result.stderr and "UnicodeError" not in result.stderr, result.stderr


def test_a_canonicalized_name_with_a_long_label_is_unresolvable_for_that_host_only(
    cli: Callable[..., Any], client: ClientSetup, tmp_path: Path
) -> None:
    # CanonicalizeHostname looks NAME.DOMAIN up while the config is read (paramiko's
    # canonicalize): a 64-character label failed there as "cannot resolve ... through ssh
    # config: encoding with 'idna' codec failed (UnicodeError: label empty or too long)".
    # Only for g* names: `target` is not looked up in DNS (the idna encoding refuses the long
    # name before any query).
    client.config.write_text("Host g*\n  CanonicalizeHostname yes\n  CanonicalDomains lab.invalid\n" + client.config.read_text())
    playbook = tmp_path / "t.yaml"
    playbook.write_text(PLAYBOOK)
    out = tmp_path / "runs"
    long_name = "g" * 64
    result = cli("run", str(playbook), "--host", "target", "--host", long_name, "-F", str(client.config), "--batch",
                 "--out", str(out), timeout=120)
    assert_clean_cli(result)
    assert result.code == 3, result.stdout + result.stderr
    _, record = load_run(out)
    errors = {h["name"]: h["error"] for h in record["hosts"]}
    assert errors["target"] is None and by_id(record, "target")["hello"]["status"] == "passed"
    assert errors[long_name] == (f"{long_name}: cannot resolve host name {long_name!r} (not a valid host name: a dot-separated "
                                 "part of it is empty or longer than 63 characters)"), errors[long_name]
