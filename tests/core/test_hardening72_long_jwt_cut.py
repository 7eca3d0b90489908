"""A cut inside a JSON Web Token longer than cut_outside_secret's reach moves before the token.

Before: `kubectl create token default` prints a service account's JWT alone on a line, 1,000
characters and more (its claims in the payload); a title or an evidence line cut inside its
payload read 512 characters past the cut, saw no signature there, so no token, and kept the cut:
the masked piece showed the token's header and the head of its payload in clear.
"""

from __future__ import annotations

import base64
import json

import pytest

from spec_debug.redact import MASK, cut_outside_secret, redact_text


def _b64(data: dict) -> str:
    return base64.urlsafe_b64encode(json.dumps(data).encode()).decode().rstrip("=")


HEADER = _b64({"alg": "RS256", "kid": "k1"})
PAYLOAD = _b64({"aud": ["https://kubernetes.default.svc"], "sub": "system:serviceaccount:default:drafter",
                "groups": ["team-" + "a" * 40 + str(i) for i in range(12)]})
JWT = HEADER + "." + PAYLOAD + "." + "Qk5" * 114
TEXT = "$ kubectl create token default\n" + JWT + "\n"


@pytest.mark.parametrize("limit", [40, 200, 400, 700])
def test_cut_inside_long_jwt_moves_before_it(limit: int) -> None:
    assert len(JWT) > 1000
    cut = cut_outside_secret(TEXT, limit)
    assert cut == TEXT.index(JWT)
    assert redact_text(TEXT[:cut]) == "$ kubectl create token default\n"


def test_whole_jwt_masked() -> None:
    assert redact_text(TEXT) == "$ kubectl create token default\n" + MASK + "\n"


def test_cut_in_plain_text_stays() -> None:
    text = "x" * 100 + " " + "a" * 5000
    assert cut_outside_secret(text, 50) == 50
    assert cut_outside_secret(text, 700) == 700
