"""Which redaction patterns run on a block of output (spec_debug.redact._patterns_for).

Before, every 64 KB block of an SGLang server log ran all fifteen patterns ("#token: 812" passed
the gate: the space after the colon was given back to a lookahead that refused a number), and
so did a line of base64 (it holds "xox" or "AKIA" somewhere, which the case-folded gate took for
a token): a step that printed such output was masked into its artifact at about 1 MB/s. The
gate must still let through every block that holds a secret.
"""

from __future__ import annotations

import base64
import random

from spec_debug import redact
from spec_debug.redact import StreamRedactor, _patterns_for, redact_text

DECODE = ("[2026-03-02 10:41:07 TP0] Decode batch, #running-req: 3, #token: 812, token usage: 0.03, "
          "accept len: 2.41, gen throughput (token/s): 88.10, #queue-req: 0\n")


def test_a_server_log_runs_no_pattern():
    assert _patterns_for(DECODE * 400) == []
    assert not redact.may_hold_secret(DECODE)
    # a number after the name is a count, with or without spaces; a word is a value
    assert not redact.may_hold_secret("max_new_tokens: 512 token:   77")
    assert redact.may_hold_secret("hf_token:   abcdef")
    assert redact_text("HF_TOKEN:   abcdef") == "HF_TOKEN:   ***REDACTED***"


def test_base64_runs_only_the_token_shapes_and_masks_a_key_inside_it():
    blob = base64.b64encode(random.Random(7).randbytes(48_000)).decode()
    assert "xox" in blob.lower() or "akia" in blob.lower()  # what tripped the case-folded gate
    assert _patterns_for(blob) in ([], redact._TOKEN_PATTERNS)
    leaked = blob[:1000] + " AKIAIOSFODNN7EXAMPLE " + blob[1000:]
    assert _patterns_for(leaked) == redact._TOKEN_PATTERNS
    assert "AKIAIOSFODNN7EXAMPLE" not in redact_text(leaked)


def test_the_literal_first_patterns_keep_the_word_boundary():
    # the boundary a leading \b gave is checked behind the literal: inside a word is no token
    assert redact_text("xhf_abcdefghijklmnopqrstuvwxyz") == "xhf_abcdefghijklmnopqrstuvwxyz"
    assert redact_text("id=hf_abcdefghijklmnopqrstuvwxyz") == "id=***REDACTED***"
    assert redact_text("XAKIAIOSFODNN7EXAMPLE AKIAIOSFODNN7EXAMPLE") == "XAKIAIOSFODNN7EXAMPLE ***REDACTED***"
    assert redact_text("mycurl -u a:b; curl -u a:b") == "mycurl -u a:b; curl -u a:***REDACTED***"


def test_a_stream_of_log_and_secrets_is_masked_as_a_whole_text_is():
    rng = random.Random(3)
    pieces = [DECODE, "export HF_TOKEN=hf_abcdefghijklmnopqrstuvwx\n", "token: 12\n",
              base64.b64encode(rng.randbytes(3000)).decode(), "curl -u bob:pw http://x\n", "AKIAIOSFODNN7EXAMPLE"]
    text = "".join(rng.choice(pieces) for _ in range(3000))
    r = StreamRedactor()
    out = bytearray()
    data = text.encode()
    at = 0
    while at < len(data):
        n = rng.randint(1, 90_000)
        out += r.feed(data[at:at + n])
        at += n
    out += r.close()
    assert out.decode() == redact_text(text)
    assert "export HF_TOKEN=***REDACTED***" in out.decode() and "curl -u bob:***REDACTED***" in out.decode()
