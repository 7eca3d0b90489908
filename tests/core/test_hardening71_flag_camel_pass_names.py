"""A password under a PASS name written as a flag (`--db-pass=...`) or in camelCase (`dbPass=...`,
`"redisPass": "..."`): is_secret_name says both are secrets' names (a `--var db-pass=...`, a key
`dbPass` is masked), and the text kept the value in clear."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, is_secret_name, redact_text, secret_spans


@pytest.mark.parametrize("text, masked", [
    ("python load.py --db-pass=hunter2 --host db01", f"python load.py --db-pass={MASK} --host db01"),
    ("dbPass=hunter2", f"dbPass={MASK}"),
    ("redisPass: hunter2", f"redisPass: {MASK}"),
    ('{"dbPass": "hunter2", "port": 5432}', f'{{"dbPass": "{MASK}", "port": 5432}}'),
    ("const smtpPass = 'hunter2';", f"const smtpPass = '{MASK}';"),
])
def test_flag_and_camel_pass_values_are_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked
    name = text.split("=")[0].split(":")[0].strip(' {"').split()[-1].lstrip("-")
    assert is_secret_name(name)


def test_stream_masks_camel_pass() -> None:
    stream = StreamRedactor()
    out = stream.feed(b"config loaded: dbPass=hunter2\n") + stream.close()
    assert out == f"config loaded: dbPass={MASK}\n".encode()


@pytest.mark.parametrize("text", [
    "forwardPass = x1",
    "mustPass: yes",
    "--forward-pass=abc",
    "bypass=abc",
    "Test Pass: done",
    "if dbPass == expected: ok",
    "dbPass = getPass()",
    "dbPass=$DB_PASS",
])
def test_no_password_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
