"""distill/redact: `docker login` changes the host, and the password echoed into
`docker login --password-stdin` is a secret.

`docker login` stores the registry's credentials on the host (~/.docker/config.json or a
credential helper; docs.docker.com/reference/cli/docker/login), so a diagnostic playbook must not
replay it; changes_host read it as a read (a distilled step, where it led to a finding or a
pivot). And `echo PASS | docker login -u bot --password-stdin registry.internal` kept the password
in the text analyze shows and distill writes (redact_text masked `docker login -p PASS` only).
`--password-stdin` is how docker's own docs tell you to pass it ("Take the password from stdin");
what is echoed into it is that password.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import redact_text
from spec_debug.session.host_changes import changes_host

PASSWORD = "Zq9xK2mP7vL4nR8t"


@pytest.mark.parametrize("command", [
    f"echo {PASSWORD} | docker login -u bot --password-stdin registry.internal",
    f"echo '{PASSWORD}' | docker login --username bot --password-stdin",
    f"printf '%s' {PASSWORD} | docker login -u bot --password-stdin registry.internal",
])
def test_the_password_echoed_into_docker_login_is_masked(command):
    masked = redact_text(command)
    assert PASSWORD not in masked and "***REDACTED***" in masked, masked


@pytest.mark.parametrize("command", ["echo $REGISTRY_PASSWORD | docker login -u bot --password-stdin reg",
                                     "echo done | docker ps"])
def test_a_shell_variable_or_another_docker_command_stays(command):
    assert redact_text(command) == command


@pytest.mark.parametrize("command", ["docker login -u bot --password-stdin registry.internal",
                                     "docker logout registry.internal"])
def test_docker_login_changes_the_host(command):
    assert changes_host(command) == f"docker {command.split()[1]}"
