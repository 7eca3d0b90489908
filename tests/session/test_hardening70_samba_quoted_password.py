"""Samba's clients take -U USER%PASSWORD (smbclient(1): "-U|--user=[DOMAIN\\]USERNAME[%PASSWORD]").
A password with a space in it is typed in quotes (`-U 'alice%my pw'`): `spec-debug analyze`
masked it only up to the space (`-U 'alice%***REDACTED*** pw'`), leaving the rest in the JSON
analysis and the postmortem, and distill's secret_spans gave the first word alone, so the
playbook kept the rest as typed. Now the mask runs to the closing quote."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans

PASSWORD = "Zq9x mP7v L4"


@pytest.mark.parametrize("command,typed", [
    (f"smbclient //nas01/models -U 'alice%{PASSWORD}' -c 'get eagle3.tar'", f"-U 'alice%{PASSWORD}'"),
    (f"smbclient //nas01/models -U \"LAB\\alice%{PASSWORD}\" -c ls", f"-U \"LAB\\alice%{PASSWORD}\""),
    (f"smbclient //nas01/models --user='alice%{PASSWORD}' -c ls", f"--user='alice%{PASSWORD}'"),
    (f"rpcclient -U 'alice%{PASSWORD}' nas01", f"-U 'alice%{PASSWORD}'"),
])
def test_a_quoted_password_is_masked_to_its_closing_quote(command: str, typed: str) -> None:
    assert redact_text(command) == command.replace(PASSWORD, MASK)
    assert [command[s:e] for s, e in secret_spans(command)] == [PASSWORD]
    assert typed.replace(PASSWORD, MASK) in redact_text(command)


@pytest.mark.parametrize("command", [
    "smbclient //nas01/models -U 'alice%$SMB_PASS' -c ls",
    "smbclient //nas01/models -U \"alice%$SMB_PASS\" -c ls",
    "smbclient //nas01/models -U 'alice' -c ls",  # asks
])
def test_no_password_typed_is_kept(command: str) -> None:
    assert redact_text(command) == command
    assert secret_spans(command) == []


def test_a_bare_password_still_ends_at_the_space() -> None:
    command = "smbclient //nas01/models -U alice%Zq9xmP7v -c 'get a b'"
    assert redact_text(command) == f"smbclient //nas01/models -U alice%{MASK} -c 'get a b'"
