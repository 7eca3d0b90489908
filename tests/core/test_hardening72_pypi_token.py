"""A PyPI API token printed with no secret's name before it.

Before: `twine upload -u __token__ -p pypi-AgEI...` and `poetry config pypi-token.pypi pypi-AgEI...`
kept the token whole (no token shape knew "pypi-"; only `password = pypi-...` under its name was
masked). Now the token is masked wherever it stands, for pypi.org and test.pypi.org.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text

BODY = "CJDAwZmY3ZjE0LTk4ZWMtNGI1OC05NmY0LTk2ZGJmYzNmOTc5YQACKlszLCI0MTFiMzQxYS0xNjQ5IiwiIl1dAAIsWzIsWyJhYmMiXV0AAAYgx_-9"
TOKEN = "pypi-AgEIcHlwaS5vcmc" + BODY
TEST_TOKEN = "pypi-AgENdGVzdC5weXBpLm9yZw" + BODY


@pytest.mark.parametrize("text, masked", [
    (f"twine upload -u __token__ -p {TOKEN} dist/*", f"twine upload -u __token__ -p {MASK} dist/*"),
    (f"poetry config pypi-token.pypi {TOKEN}", f"poetry config pypi-token.pypi {MASK}"),
    (f"twine upload -r testpypi -p {TEST_TOKEN} dist/*", f"twine upload -r testpypi -p {MASK} dist/*"),
    (f"{TOKEN}\n", f"{MASK}\n"),
])
def test_token_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", [
    "pip install pypi-simple==1.0",
    "pypi-AgE",  # the prefix alone
    "Uploading distributions to https://upload.pypi.org/legacy/",
])
def test_no_token_stays(text: str) -> None:
    assert redact_text(text) == text
