"""is_secret_name reads a token named joined (ngrok's `authtoken`, NGROK_AUTHTOKEN, `accesstoken`)
as the flag patterns read `--authtoken`; and Ansible's ask_pass / become_ask_pass and a no_pass,
switches that hold no password, are no secret's name (as `--ask-pass`, `--no-pass` are none)."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value, secret_values


@pytest.mark.parametrize("name", ["authtoken", "AUTHTOKEN", "ngrok_authtoken", "NGROK_AUTHTOKEN",
                                  "accesstoken", "refreshtoken", "ngrok-authtoken", "authtoken_2"])
def test_joined_token_names_are_secret(name: str) -> None:
    assert is_secret_name(name)
    assert redact_value({name: "2abcDEFghi123"}) == {name: MASK}
    assert secret_values({name: "2abcDEFghi123"}) == ("2abcDEFghi123",)


@pytest.mark.parametrize("name", ["ask_pass", "become_ask_pass", "ANSIBLE_ASK_PASS", "no_pass", "askPass", "no-pass"])
def test_switches_named_pass_are_no_secret(name: str) -> None:
    assert not is_secret_name(name)
    assert redact_value({name: "yes"}) == {name: "yes"}


@pytest.mark.parametrize("text", ["ask_pass: yes", "become_ask_pass = yes", "askPass: yes", "no_pass: yes"])
def test_switches_named_pass_stay_in_text(text: str) -> None:
    assert redact_text(text) == text


@pytest.mark.parametrize("name", ["db_pass", "ssh_pass", "task_pass", "flask_pass", "dbPass"])
def test_neighbours_stay_secret(name: str) -> None:
    assert is_secret_name(name)
    assert redact_text(f"{name}: hunter2x") == f"{name}: {MASK}"


@pytest.mark.parametrize("name", ["max_tokens", "eos_token", "tokenizer", "forward_pass"])
def test_no_secret_names_stay(name: str) -> None:
    assert not is_secret_name(name)
