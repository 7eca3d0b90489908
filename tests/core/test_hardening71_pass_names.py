"""A password under a name ending in the word PASS (DB_PASS, db_pass) is masked in text, as
is_secret_name masks it under `--var db_pass`; a pass of a computation or a check (forward_pass,
must_pass) is no password, in text or as a key."""

import pytest

from spec_debug.redact import MASK, is_secret_name, redact_text, redact_value, secret_spans


@pytest.mark.parametrize("text,expected", [
    ("DB_PASS=hunter22", f"DB_PASS={MASK}"),
    ("export REDIS_PASS=abc123 && redis-server", f"export REDIS_PASS={MASK} && redis-server"),
    ("db_pass: hunter22", f"db_pass: {MASK}"),
    ('MONGO_PASS="x9y"', f'MONGO_PASS="{MASK}"'),
    ('{"smtp_pass": "Zq8wPl0m"}', f'{{"smtp_pass": "{MASK}"}}'),
    ("db-pass: hunter22", f"db-pass: {MASK}"),
    ("DB_PASS_2=hunter22", f"DB_PASS_2={MASK}"),
])
def test_pass_named_value_masked(text, expected):
    assert redact_text(text) == expected


@pytest.mark.parametrize("text", [
    "forward_pass: abc",
    "must_pass=yes",
    "custom_post_pass: None",
    "MY_FORWARD_PASS=slow",
    "--- PASS: TestDraftAccept (0.00s)",
    "bypass=cache",
    "PASSED tests/test_x.py",
    "DB_PASS=$DB_PASS",
    "when: db_pass == 'x'",
    "DB_PASSWORD_HINT is unset",
    "first_pass: 12",
])
def test_no_password_kept(text):
    assert redact_text(text) == text


def test_spans_match_masks():
    text = "run: DB_PASS=hunter22 ./migrate"
    (start, end), = secret_spans(text)
    assert text[start:end] == "hunter22"


@pytest.mark.parametrize("name", ["forward_pass", "forwardPass", "must_pass", "first_pass", "single_pass",
                                  "custom_post_pass", "backward_pass_2"])
def test_pass_of_a_computation_is_no_secret_name(name):
    assert is_secret_name(name) is False
    assert redact_value({name: "cuda graph"}) == {name: "cuda graph"}


@pytest.mark.parametrize("name", ["db_pass", "DB_PASS", "ssh_pass", "pass", "dbPass", "smtp_pass_2"])
def test_password_pass_names_still_secret(name):
    assert is_secret_name(name) is True
