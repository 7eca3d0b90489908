"""A password after a flag named PASS, its value the next word (`--db-pass hunter2`).

Before: `--db-pass=hunter2` was masked, and `--password hunter2`, but `app --db-pass hunter2`
(the space form argparse and click take as well) kept the password, in text and in an argv.
Ansible's prompting switches (`--ask-pass`, `--ask-become-pass`), a `--no-pass` and a pass of a
computation (`--forward-pass 3`) take no password: the next word stays.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, redact_value, secret_spans

PASSWORD = "Hunt3r-2pw"


@pytest.mark.parametrize("text, masked", [
    (f"python3 migrate.py --db-pass {PASSWORD}", f"python3 migrate.py --db-pass {MASK}"),
    (f"app --db-pass {PASSWORD} --port 5432", f"app --db-pass {MASK} --port 5432"),
    (f'app --redis-pass "{PASSWORD} x" -v', f'app --redis-pass "{MASK}" -v'),
    (f"app --admin_pass {PASSWORD}", f"app --admin_pass {MASK}"),
    ("app --db-pass 314159", f"app --db-pass {MASK}"),
    (f"app --db-pass-2 {PASSWORD}", f"app --db-pass-2 {MASK}"),
])
def test_space_separated_password_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "ansible-playbook -i hosts --ask-pass site.yml",
    "ansible-playbook --ask-become-pass site.yml",
    "ansible-playbook --ask-vault-pass site.yml",
    "tool --no-pass corp/alice@10.0.0.5",
    "bench --forward-pass 3 --draft-pass 2",
    "app --db-pass $DB_PASS",
    "app --db-pass --port 5432",
])
def test_no_password_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


def test_argv_word_after_pass_flag_is_masked() -> None:
    argv = ["app", "--db-pass", PASSWORD, "--ask-pass", "site.yml", "--forward-pass", "3", "--db-pass", "$DB_PASS"]
    assert redact_value(argv) == ["app", "--db-pass", MASK, "--ask-pass", "site.yml", "--forward-pass", "3",
                                  "--db-pass", "$DB_PASS"]
