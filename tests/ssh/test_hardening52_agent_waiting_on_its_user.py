"""An ssh-agent that asks its user before each signature (`ssh-add -c`, AddKeysToAgent confirm; a
security key waiting for a touch; 1Password's or Secretive's approval). ssh-agent asks one
confirmation at a time, so a fleet's logins queue behind each other. ssh(1) waits for the answer;
spec-debug counted the wait against ConnectTimeout's bound on sshd's answer and failed the host
with "did not answer authentication within 15 s ... sshd is stuck looking the account up":
blaming the host for our agent. The agent's time is no longer the host's.

Real ssh-agent, confirming through a real SSH_ASKPASS program that takes its time to say yes."""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from tests.sshd_fixture import ClientSetup, SshServer

CONFIRM_S = 6  # the person's time to say yes, longer than the ConnectTimeout below


@pytest.fixture
def confirming_agent(tmp_path: Path, client: ClientSetup) -> Iterator[Path]:
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None:
        pytest.skip("ssh-agent not installed")
    askpass = tmp_path / "slow-yes"
    askpass.write_text(f"#!/bin/sh\nsleep {CONFIRM_S}\nexit 0\n")  # exit 0: the confirmation given
    askpass.chmod(0o755)
    socket_path = tmp_path / "agent.sock"
    # ssh-agent asks through SSH_ASKPASS (openssh-portable: ssh-agent.c, confirm_key; readpass.c).
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "SSH_ASKPASS": str(askpass),
                                                            "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"})
    try:
        env = {**os.environ, "SSH_AUTH_SOCK": str(socket_path)}
        deadline = time.monotonic() + 30
        while subprocess.run(["ssh-add", "-l"], env=env, capture_output=True, check=False).returncode == 2:
            assert time.monotonic() < deadline and agent.poll() is None, "ssh-agent did not start"
            time.sleep(0.05)
        subprocess.run(["ssh-add", "-c", str(client.key.path)], env=env, check=True, capture_output=True, timeout=30)
        yield socket_path
    finally:
        agent.kill()
        agent.wait()


def test_a_login_waits_for_the_agent_to_be_approved_as_ssh_does(
        cli: Callable[..., Any], client: ClientSetup, sshd: SshServer, tmp_path: Path, confirming_agent: Path) -> None:
    client.alias("gpu01", sshd, IdentityFile="none", IdentitiesOnly="no", ConnectTimeout=3)
    env = {"SSH_AUTH_SOCK": str(confirming_agent)}
    if shutil.which("ssh") is not None:
        by_ssh = subprocess.run(["ssh", "-F", str(client.config), "-o", "BatchMode=yes", "gpu01", "true"],
                                env={**os.environ, **env}, capture_output=True, text=True, timeout=60,
                                stdin=subprocess.DEVNULL, check=False)
        assert by_ssh.returncode == 0, by_ssh.stderr
    tiny = tmp_path / "tiny.yaml"
    tiny.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n")
    done = cli("run", str(tiny), "--host", "gpu01", "--batch", "--out", str(tmp_path / "runs"), env=env)
    assert done.code == 0, done.stdout + done.stderr


def test_a_host_listing_the_agents_keys_while_it_asks_about_another_waits_too(
        cli: Callable[..., Any], client: ClientSetup, sshd_factory: Callable[..., SshServer], tmp_path: Path) -> None:
    """ssh-agent answers no one while its confirmation is open (one thread, waiting for
    ssh-askpass), so a host that lists the agent's keys meanwhile had no answer within 30 s: the
    agent was taken for dead, for that host and every later one of the run. Here the first
    confirmation takes 36 s, and gpu02, reached through a ProxyCommand that takes 3 s, lists the
    keys during it."""
    if shutil.which("ssh-agent") is None or shutil.which("ssh-add") is None or shutil.which("ssh") is None:
        pytest.skip("needs ssh-agent, ssh-add and ssh(1)")
    first = tmp_path / "first-asked"
    askpass = tmp_path / "yes-after-a-while"
    askpass.write_text(f"#!/bin/sh\nif [ ! -e {first} ]; then touch {first}; sleep 36; fi\nexit 0\n")
    askpass.chmod(0o755)
    socket_path = tmp_path / "agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL, env={**os.environ, "SSH_ASKPASS": str(askpass),
                                                            "SSH_ASKPASS_REQUIRE": "force", "DISPLAY": ":0"})
    try:
        env = {**os.environ, "SSH_AUTH_SOCK": str(socket_path)}
        deadline = time.monotonic() + 30
        while subprocess.run(["ssh-add", "-l"], env=env, capture_output=True, check=False).returncode == 2:
            assert time.monotonic() < deadline and agent.poll() is None, "ssh-agent did not start"
            time.sleep(0.05)
        subprocess.run(["ssh-add", "-c", str(client.key.path)], env=env, check=True, capture_output=True, timeout=30)
        one, two = sshd_factory("one"), sshd_factory("two")
        client.trust(one)
        client.trust(two)
        client.alias("gpu01", one, IdentityFile="none", IdentitiesOnly="no")
        # The proxy's own ssh signs with the key file, not the agent: it must not queue there too.
        proxy = f"sh -c 'sleep 3; exec ssh -F {client.config} -o IdentityAgent=none -W %h:%p target'"
        client.alias("gpu02", two, IdentityFile="none", IdentitiesOnly="no", ProxyCommand=proxy)
        tiny = tmp_path / "tiny.yaml"
        tiny.write_text("name: tiny\ndescription: t\nsteps:\n  - id: ok\n    title: ok\n    why: ok\n    run: 'true'\n")
        done = cli("run", str(tiny), "--host", "gpu01", "--host", "gpu02", "--batch", "--out", str(tmp_path / "runs"),
                   env={"SSH_AUTH_SOCK": str(socket_path)}, timeout=120)
        assert done.code == 0, done.stdout + done.stderr
    finally:
        agent.kill()
        agent.wait()
