"""A wallet's private key and a GitHub personal access token under their names in text.

Before: is_secret_name masked a dict's `PRIVATE_KEY` and `GITHUB_PAT`, but the text kept
`PRIVATE_KEY=0x<64 hex>` (a web3 `.env`, `cat .env`), `--private-key 0x...` (foundry's `cast send`)
and `GITHUB_PAT=<40 hex>` (a classic token, no shape the token patterns know) as typed. A key's file
under ansible's `--private-key PATH` and a bare transaction hash stay readable.
"""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, may_hold_secret, redact_text, secret_spans

KEY = "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318"
PAT = "0123456789abcdef0123456789abcdef01234567"


@pytest.mark.parametrize("text, masked", [
    (f"PRIVATE_KEY=0x{KEY}", f"PRIVATE_KEY={MASK}"),
    (f"export DEPLOYER_PRIVATE_KEY=0x{KEY}\n", f"export DEPLOYER_PRIVATE_KEY={MASK}\n"),
    (f'private_key: "0x{KEY}"', f'private_key: "{MASK}"'),
    (f"cast send --private-key 0x{KEY} 0xdeadbeef 'f()'", f"cast send --private-key {MASK} 0xdeadbeef 'f()'"),
    (f"forge script S.s.sol --private-key={KEY} --broadcast", f"forge script S.s.sol --private-key={MASK} --broadcast"),
    (f"GITHUB_PAT={PAT}", f"GITHUB_PAT={MASK}"),
    (f"export GITHUB_PAT={PAT}; Rscript -e 'gh::gh_whoami()'", f"export GITHUB_PAT={MASK}; Rscript -e 'gh::gh_whoami()'"),
    (f"  GH_PAT: {PAT}\n", f"  GH_PAT: {MASK}\n"),
    (f'{{"GITLAB_PAT": "{PAT}"}}', f'{{"GITLAB_PAT": "{MASK}"}}'),
])
def test_named_key_is_masked(text: str, masked: str) -> None:
    assert may_hold_secret(text)
    assert redact_text(text) == masked
    assert KEY not in redact_text(text) and PAT not in redact_text(text)


@pytest.mark.parametrize("text", [
    "ansible-playbook -i hosts --private-key ~/.ssh/id_ed25519 site.yml",
    f"tx 0x{KEY} mined in block 19000000",
    "PRIVATE_KEY_PATH=/etc/keys/signer.pem",
    "private_key = ec.generate_private_key(ec.SECP256K1())",
    "GITHUB_PAT=$(gh auth token)",
    "pattern=abc path=/models/github",
])
def test_no_secret_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
