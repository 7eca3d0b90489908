"""A password typed last inside the quotes of a command ssh runs: `ssh db01 "mysql -u root
-pPASS"`, `ssh gpu01 "python3 -m sglang.launch_server ... --api-key KEY"`. The bare secret of
mysql -pPASS, sshpass -p, --api-key/--token/--password, docker/podman login -p, redis-cli -a,
curl --oauth2-bearer (and of mongosh -p, ldapsearch -w, htpasswd -b, gpg --passphrase) ran to
the next space, the closing quote with it: analyze showed `ssh db01 "mysql
-u root -p***REDACTED***` (the quote gone), and distill, which puts a var where redact would
mask (secret_spans), wrote `ssh db01 "mysql -u root -p{{ p_secret | raw }}`, a step whose quote
never closes. A bare secret now ends at a quote; a quoted one (`-p'PASS'`) is still masked
inside its quotes, and a reference the shell fills in (`-p"$DB_PASS"`) is none."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans
from spec_debug.session.distill import _as_template, _secrets_to_slots, _VarNames

SECRET = "Zq9xK2mP7vL4"


@pytest.mark.parametrize("command", [
    f'ssh db01 "mysql -u root -p{SECRET}"',
    f"ssh db01 'mysqldump -uroot -p{SECRET}'",
    f'ssh gpu02 "sshpass -p {SECRET}"',
    f'ssh db01 "mongosh -u admin -p {SECRET}"',
    f'ssh ldap01 "ldapwhoami -x -D cn=admin,dc=lab -w {SECRET}"',
    f'ssh web01 "htpasswd -b /etc/nginx/.htpasswd alice {SECRET}"',
    f'ssh gpu01 "python3 -m sglang.launch_server --model-path /models/llama --api-key {SECRET}"',
    f'ssh gpu01 "docker login -u bot -p {SECRET}"',
    f'ssh gpu01 "podman login -u bot -p {SECRET}"',
    f'ssh cache01 "redis-cli -a {SECRET}"',
    f'ssh gpu01 "curl -s localhost:30000/v1/models --oauth2-bearer {SECRET}"',
])
def test_the_closing_quote_stays(command: str) -> None:
    assert redact_text(command) == command.replace(SECRET, MASK)
    (start, end), = secret_spans(command)
    assert command[start:end] == SECRET
    distilled = _as_template(_secrets_to_slots(command, _VarNames()).text)
    assert SECRET not in distilled
    assert distilled.endswith(command[-1])  # the quote ssh's command closes with


@pytest.mark.parametrize("command, masked", [
    (f"mysql -u root -p'{SECRET}' -e 'select 1'", f"mysql -u root -p'{MASK}' -e 'select 1'"),
    (f'mysql -u root -p"{SECRET}"', f'mysql -u root -p"{MASK}"'),
    (f"sshpass -p '{SECRET}' ssh gpu02", f"sshpass -p '{MASK}' ssh gpu02"),
    ('mysql -u root -p"$DB_PASS" -e "select 1"', 'mysql -u root -p"$DB_PASS" -e "select 1"'),
])
def test_a_quoted_password_is_masked_inside_its_quotes(command: str, masked: str) -> None:
    assert redact_text(command) == masked
