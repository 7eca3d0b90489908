"""`--connect-timeout 1m` was refused by the option parser ("Input should be a valid number")
while `-o ConnectTimeout=1m` took ssh(1)'s time forms (openssh-portable: misc.c, convtime).
The option now reads the same forms, over the real sshd; a malformed one is refused before the
run, naming the forms to use."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.sshd_fixture import ClientSetup

PLAYBOOK = "name: t\nsteps:\n  - id: hello\n    run: echo hi\n"


@pytest.mark.parametrize("value", ["1m", "1m30s", "none", "20"])
def test_an_ssh_time_form_is_taken_as_connect_timeout_does(tmp_path: Path, client: ClientSetup, value: str) -> None:
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(PLAYBOOK)
    done = run_cli("run", str(playbook), "--host", "target", "-F", str(client.config), "--batch",
                   f"--connect-timeout={value}", "--out", str(tmp_path / "out"), timeout=60)
    assert done.code == 0, done.stderr
    record = json.loads(next((tmp_path / "out").glob("*/run.json")).read_text())
    assert [step["status"] for step in record["steps"]] == ["passed"]


@pytest.mark.parametrize("value, over", [("1x", False), ("-1m", False), ("1.5m", False), ("4000w", True)])
def test_a_malformed_time_is_refused_before_the_run_naming_the_forms(tmp_path: Path, value: str, over: bool) -> None:
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(PLAYBOOK)
    done = run_cli("run", str(playbook), "--host", "root@127.0.0.1:1", f"--connect-timeout={value}",
                   "--out", str(tmp_path / "out"))
    said = " ".join(done.stderr.split())
    assert done.code == 2, said
    assert f"--connect-timeout {value}: must be a number of seconds, e.g. 15, or an ssh time such as 1m30s" in said
    assert ("over 2147483647 seconds" in said) is over
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("value, shown", [("1e12", "1000000000000"), ("2147483648", "2147483648")])
def test_a_number_past_what_ssh_takes_is_refused_before_the_run(tmp_path: Path, value: str, shown: str) -> None:
    """`--connect-timeout 1e12` reached the socket: "internal error: OverflowError: timestamp out
    of range for platform time_t" on every SSH host, after the run folder was made."""
    playbook = tmp_path / "pb.yaml"
    playbook.write_text(PLAYBOOK)
    done = run_cli("run", str(playbook), "--host", "root@127.0.0.1:1", f"--connect-timeout={value}",
                   "--out", str(tmp_path / "out"))
    said = " ".join(done.stderr.split())
    assert done.code == 2, said
    assert f"--connect-timeout {shown}: over 2147483647 seconds, as ssh(1) refuses it" in said
    assert "internal error" not in said and not (tmp_path / "out").exists()
