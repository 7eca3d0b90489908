"""Ansible's short password var names and sshpass's SSHPASS are masked wherever they are
quoted (an inventory pasted into a session, a `cat hosts.ini` step's output)."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text


@pytest.mark.parametrize("text, secret", [
    ("gpu01 ansible_host=10.0.0.5 ansible_ssh_pass=hunter2 ansible_user=root", "hunter2"),
    ("ansible_become_pass: 's3cret'", "s3cret"),
    ("ansible_sudo_pass = \"p4ss\"", "p4ss"),
    ("SSHPASS=hunter2 sshpass -e ssh gpu01 nvidia-smi", "hunter2"),
    ("export SSHPASS='two words'", "two words"),
])
def test_masked(text, secret):
    assert may_hold_secret(text)
    masked = redact_text(text)
    assert secret not in masked and MASK in masked


@pytest.mark.parametrize("text", ["bypass=1 compass: north", "ansible_user=root ansible_port=2222"])
def test_not_secrets(text):
    assert redact_text(text) == text
