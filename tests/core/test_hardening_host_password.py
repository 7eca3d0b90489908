"""`--host root:PASS@gpu01` is refused, and the password is not repeated anywhere.

It reads as a URL's user:password, but ssh(1) passes the user on whole and sshd takes what
follows ':' as an auth style: the login went ahead with a key, the password unused, and the
host name, password and all, was printed on the console and written to run.json, report.md and
report.html."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli


@pytest.mark.parametrize(("option", "host", "masked"), [
    ("--host", "root:hunter2@127.0.0.1", "root:***@127.0.0.1"),
    ("--host", "ssh://alice:hunter2@gpu01:2222", "ssh://alice:***@gpu01:2222"),
    ("--hosts", "root:hunter2@gpu[01-02]", "root:***@gpu01"),
])
def test_a_password_in_the_host_is_refused_before_anything_is_written(tmp_path, write_playbook, option, host,
                                                                       masked):
    playbook = write_playbook("name: p\nsteps:\n  - id: a\n    run: echo hi\n")
    result = run_cli("run", str(playbook), option, host, "--out", str(tmp_path / "runs"))
    assert result.code == 2, result.stderr
    assert "hunter2" not in result.stdout + result.stderr
    message = " ".join(result.stderr.split())
    assert f"host '{masked}' has a password in it" in message, message
    assert "log in with a key or ssh-agent" in message
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "runs").exists()


def test_a_user_with_an_at_sign_still_logs_in_as_written(tmp_path, write_playbook):
    # a domain account (alice@corp.example@host) has no ':' and is not a password
    from spec_debug.runner.hosts import resolve_hosts
    [spec] = resolve_hosts(["alice@corp.example@gpu01:2222"], [], None, None)
    assert (spec.user, spec.address, spec.port) == ("alice@corp.example", "gpu01", 2222)
