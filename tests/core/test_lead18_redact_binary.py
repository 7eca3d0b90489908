"""Redaction of output that is not ASCII (a binary dump read with surrogateescape, a CJK log).

Such a block used to run every pattern (the case-folded gate was skipped for any non-ASCII
text): a step printing 20 MB of /dev/urandom was masked into its artifact at 0.4 MB/s, a
300 MB dump still going after 10 minutes. Now the gate reads the four characters outside ASCII
that ``re.IGNORECASE`` folds to an ASCII letter (İ ı ſ K) as that letter, and nothing else
about non-ASCII text stops it. It must still let through every text that holds a secret."""

from __future__ import annotations

import random
import re

from spec_debug import redact
from spec_debug.redact import StreamRedactor, _patterns_for, redact_text


def _binary(seed: int, n: int) -> str:
    return random.Random(seed).randbytes(n).decode("utf-8", "surrogateescape")


def test_random_bytes_run_no_pattern():
    blocks = [_binary(seed, 64 * 1024) for seed in range(8)]
    assert all(not b.isascii() for b in blocks)
    assert sum(_patterns_for(b) == redact._PATTERNS for b in blocks) == 0
    assert _patterns_for("日志: 吞吐量 88 tok/s, 接受长度 2.4\n" * 2000) == []


def test_the_characters_ignorecase_folds_to_ascii_are_the_ones_the_gate_reads():
    # A new Python could fold more: the gate must know each (checked over every code point).
    folded = {chr(cp) for cp in range(0x80, 0x110000) if re.fullmatch(r"(?i)[a-z]", chr(cp))}
    lowered = {chr(cp) for cp in range(0x80, 0x110000) if any(ord(c) < 0x80 for c in chr(cp).lower())}
    assert folded | lowered == {odd for odd, _ in redact._FOLDS_TO_ASCII}


def test_a_secret_spelt_with_folded_letters_is_still_masked():
    for text in ("ſecret=hunter2-long", "db_paſſword: hunter2-long", "AUTHORİZATION: Bearer abcdef123456",
                 "--api-Key=abcdef123456", "my_token = ıtoken-value"):
        masked = redact_text(text)
        assert redact.MASK in masked, text
        assert masked == redact._masked_by(text, redact._PATTERNS), text


def test_the_gate_never_hides_a_match_in_mixed_text():
    """Texts of fragments, non-ASCII among them: the gated result is what all patterns give."""
    rng = random.Random(5)
    fragments = ["ſecret", "İ", "ı", "K", "token", "TOKEN", "=", ": ", " ", "\n", "abc123def456", "хорошо", "日本",
                 "--", "api-", "key", "pass", "word", "_", "://", "user:pw@host", "hf_", "A" * 24, "\udc9f", "é",
                 "Authorization", "Bearer ", "curl -u ", "sshpass -p ", "-----BEGIN RSA PRIVATE KEY-----"]
    for _ in range(3000):
        text = "".join(rng.choice(fragments) for _ in range(rng.randint(1, 14)))
        assert redact_text(text) == redact._masked_by(text, redact._PATTERNS), repr(text)


def test_a_binary_stream_keeps_its_bytes_and_loses_its_token():
    data = random.Random(9).randbytes(600_000)
    token = b" hf_abcdefghijklmnopqrstuvwxyz012345 "
    data = data[:300_000] + token + data[300_000:]
    r = StreamRedactor()
    out = bytearray()
    for at in range(0, len(data), 70_001):
        out += r.feed(data[at:at + 70_001])
    out += r.close()
    assert b"hf_abcdefghijklmnopqrstuvwxyz012345" not in out
    assert bytes(out) == data.replace(token, b" " + redact.MASK.encode() + b" ")
