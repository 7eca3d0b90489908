"""A key named `SECRET_KEY` (Django's and Flask's setting), `SIGNING_KEY`, `ENCRYPTION_KEY`,
`RAILS_MASTER_KEY` or Rails' `SECRET_KEY_BASE` holds a secret; `secret_key_path`, `public_key`,
`primary_key`, `sort_key`, `cache_key`, `num_keys` hold none.

Before: a secret name had to END in token/secret/password/api_key/access_key, so
`export DJANGO_SECRET_KEY=...`, `app.config["SECRET_KEY"] = "..."`, a Kubernetes env list's
`{"name": "SECRET_KEY", "value": "..."}`, `--secret-key VALUE`, and `--var secret_key=...` in a run
(its vars, command and output in run.json and both reports) all kept the value as typed.
"""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, is_secret_name, may_hold_secret, redact_text, redact_value
from tests.conftest import only_run, run_cli

SECRET = "Qm7vTz2pLx9Wk4"


@pytest.mark.parametrize("name", ["secret_key", "SECRET_KEY", "DJANGO_SECRET_KEY", "flask_secret_key", "signing_key",
                                  "JWT_SIGNING_KEY", "encryption_key", "RAILS_MASTER_KEY", "SECRET_KEY_BASE",
                                  "secret-key", "aws_secret_key", "secret_key_2"])
def test_a_secret_key_name_is_a_secret_name(name: str) -> None:
    assert is_secret_name(name)
    assert redact_value({name: SECRET, "port": 8000}) == {name: MASK, "port": 8000}


@pytest.mark.parametrize("name", ["secret_key_path", "secret_key_file", "key_file", "public_key", "primary_key",
                                  "sort_key", "cache_key", "num_keys", "keyboard", "monkey", "key", "signing_key_id"])
def test_other_key_names_stay(name: str) -> None:
    assert not is_secret_name(name)
    assert redact_value({name: SECRET}) == {name: SECRET}
    assert redact_text(f"{name}={SECRET}") == f"{name}={SECRET}"
    assert redact_text(f'{{"{name}": "{SECRET}"}}') == f'{{"{name}": "{SECRET}"}}'


@pytest.mark.parametrize("text, masked", [
    (f"export DJANGO_SECRET_KEY={SECRET}", f"export DJANGO_SECRET_KEY={MASK}"),
    (f'SECRET_KEY="{SECRET}" gunicorn app:app', f'SECRET_KEY="{MASK}" gunicorn app:app'),
    (f"SECRET_KEY = 'django-insecure-{SECRET}'", f"SECRET_KEY = '{MASK}'"),
    (f'app.config["SECRET_KEY"] = "{SECRET}"', f'app.config["SECRET_KEY"] = "{MASK}"'),
    (f"app.secret_key = '{SECRET}'", f"app.secret_key = '{MASK}'"),
    (f"RAILS_MASTER_KEY={SECRET} bin/rails server", f"RAILS_MASTER_KEY={MASK} bin/rails server"),
    (f"SECRET_KEY_BASE={SECRET}", f"SECRET_KEY_BASE={MASK}"),
    (f"JWT_SIGNING_KEY: {SECRET}", f"JWT_SIGNING_KEY: {MASK}"),
    (f'{{"encryption_key": "{SECRET}"}}', f'{{"encryption_key": "{MASK}"}}'),
    (f'export SECRET_KEY="${{SECRET_KEY:-{SECRET}}}"', f'export SECRET_KEY="${{SECRET_KEY:-{MASK}}}"'),
    (f'{{"name": "SECRET_KEY", "value": "{SECRET}"}}', f'{{"name": "SECRET_KEY", "value": "{MASK}"}}'),
    (f"        - name: DJANGO_SECRET_KEY\n          value: {SECRET}\n",
     f"        - name: DJANGO_SECRET_KEY\n          value: {MASK}\n"),
    (f'curl -d "{{\\"secret_key\\":\\"{SECRET}\\"}}" http://127.0.0.1:8000',
     f'curl -d "{{\\"secret_key\\":\\"{MASK}\\"}}" http://127.0.0.1:8000'),
    (f"s3cmd --secret_key={SECRET} ls s3://ckpt", f"s3cmd --secret_key={MASK} ls s3://ckpt"),
    (f"minio server /data --secret-key {SECRET} --address :9000", f"minio server /data --secret-key {MASK} --address :9000"),
])
def test_a_secret_key_in_text_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    'SECRET_KEY = os.environ["DJANGO_SECRET_KEY"]',
    "export SECRET_KEY=$DJANGO_SECRET_KEY",
    "SECRET_KEY_PATH=/etc/app/secret.key python3 serve.py",
    "public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 sort_key=draft cache_key: prefix",
])
def test_what_is_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text


def test_a_secret_key_flag_word_in_argv_is_masked() -> None:
    argv = ["minio", "server", "/data", "--secret-key", SECRET, "--address", ":9000"]
    assert redact_value(argv) == ["minio", "server", "/data", "--secret-key", MASK, "--address", ":9000"]


def test_run_json_masks_a_secret_key_var(tmp_path) -> None:
    playbook = tmp_path / "p.yaml"
    playbook.write_text(
        "name: p\nvars:\n  secret_key: ''\nsteps:\n"
        "  - id: call\n"
        "    run: |\n      echo \"X-Signature: {{ secret_key }}\"\n"
        "    expect:\n      - exit_code: 0\n", encoding="utf-8")
    out = tmp_path / "runs"
    result = run_cli("run", str(playbook), "--host", "local", "--out", str(out), "--var", f"secret_key={SECRET}")
    assert result.code == 0, result.stderr
    run_dir, record = only_run(out)
    step = record["steps"][0]
    assert step["stdout"] == f"X-Signature: {MASK}\n"
    assert MASK in step["command"]
    written = "".join(p.read_text(encoding="utf-8", errors="replace") for p in run_dir.rglob("*") if p.is_file())
    assert SECRET not in written
    assert SECRET not in json.dumps(record)


def test_distill_makes_a_secret_key_a_var_named_like_a_secret(tmp_path) -> None:
    from tests.session.test_hardening38_distill import HEALTH, _session
    doc, _ = _session(tmp_path, HEALTH, (f"DJANGO_SECRET_KEY={SECRET} python3 manage.py check --deploy",
                                         "CommandError: SECRET_KEY is invalid", 1))
    (step,) = [s for s in doc["steps"] if "manage.py" in s["run"]]
    assert "DJANGO_SECRET_KEY={{ django_secret_key }} python3 manage.py check --deploy" in step["run"]
    assert doc["vars"]["django_secret_key"] == ""
    assert is_secret_name("django_secret_key")
    assert SECRET not in json.dumps(doc)
