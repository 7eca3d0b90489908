"""`IdentityAgent $SSH_AUTH_SOCK_WORK`: the agent named by an environment variable, no braces.

ssh(1) reads a whole value `$NAME` as "the socket in $NAME", and no agent at all when NAME is
unset (openssh-portable: ssh.c, main, "legacy (limited) format": setenv or unsetenv
SSH_AUTH_SOCK). People keep a second agent for work keys this way. spec-debug took the value
as a path, connected to a socket named `$SSH_AUTH_SOCK_WORK` in the current folder, and every
host behind it "failed authentication" with the agent's keys never offered.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest

from spec_debug.errors import UsageError
from spec_debug.runner.ssh_agent import _open_agent
from spec_debug.runner.ssh_auth_options import AuthOptions, _Attempts
from spec_debug.runner.ssh_config import load_ssh_config, resolve_target

pytestmark = pytest.mark.skipif(not all(shutil.which(tool) for tool in ("ssh-agent", "ssh-add", "ssh-keygen")),
                                reason="needs OpenSSH's ssh-agent, ssh-add and ssh-keygen")


@pytest.fixture
def work_agent(tmp_path: Path):
    """A real ssh-agent on its own socket, holding one key."""
    socket_path = tmp_path / "work-agent.sock"
    agent = subprocess.Popen(["ssh-agent", "-D", "-a", str(socket_path)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        key = tmp_path / "id_work"
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(key)], check=True)
        for _ in range(200):
            if socket_path.exists():
                break
            time.sleep(0.01)
        subprocess.run(["ssh-add", "-q", str(key)], check=True, env={**os.environ, "SSH_AUTH_SOCK": str(socket_path)},
                       stdin=subprocess.DEVNULL, capture_output=True)
        yield socket_path
    finally:
        agent.send_signal(signal.SIGTERM)
        agent.wait(timeout=10)


def agent_key_count(config: Path) -> int | None:
    target = resolve_target("gpu01", load_ssh_config(config))
    agent = _open_agent(target, AuthOptions(), _Attempts())
    if agent is None:
        return None
    try:
        return len(agent.get_keys())
    finally:
        agent.close()


def test_identity_agent_dollar_name_is_the_socket_that_variable_names(tmp_path: Path, work_agent: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SSH_AUTH_SOCK", raising=False)
    monkeypatch.setenv("SSH_AUTH_SOCK_WORK", str(work_agent))
    config = tmp_path / "config"
    config.write_text("Host gpu*\n  IdentityAgent $SSH_AUTH_SOCK_WORK\n")
    assert agent_key_count(config) == 1


def test_identity_agent_dollar_name_unset_is_no_agent(tmp_path: Path, work_agent: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ssh(1) unsets SSH_AUTH_SOCK then: the default agent is not asked either.
    monkeypatch.setenv("SSH_AUTH_SOCK", str(work_agent))
    monkeypatch.delenv("SSH_AUTH_SOCK_WORK", raising=False)
    config = tmp_path / "config"
    config.write_text("Host gpu*\n  IdentityAgent $SSH_AUTH_SOCK_WORK\n")
    assert agent_key_count(config) is None


def test_identity_agent_with_an_unset_braced_variable_is_refused_as_ssh_refuses_it(tmp_path: Path,
                                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_SUCH_AGENT_DIR", raising=False)
    config = tmp_path / "config"
    config.write_text("Host gpu*\n  IdentityAgent ${NO_SUCH_AGENT_DIR}/agent.sock\n")
    if shutil.which("ssh"):
        done = subprocess.run(["ssh", "-F", str(config), "-o", "ProxyCommand=false", "gpu01", "true"], capture_output=True,
                              text=True, check=False, stdin=subprocess.DEVNULL, timeout=30)
        assert "Invalid environment expansion" in done.stderr or "has no value" in done.stderr, done.stderr
    with pytest.raises(UsageError) as refused:
        resolve_target("gpu01", load_ssh_config(config))
    assert "environment variable NO_SUCH_AGENT_DIR is not set" in refused.value.message
