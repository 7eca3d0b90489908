"""`vault kv get secret/db` prints the secret's data as a Key/Value table (a header, a line of
dashes, then `password    <the password>`), and `az storage account keys list -o table` the
account's keys under KeyName/Permissions/Value: no name stands before a value on its row, only the
header and the dashes above say which column is a secret. A step's spilled output is masked in
blocks (StreamRedactor); where a block was cut between the header and the rows, the next block
held rows with no header above them, and the artifact kept the password and both account keys in
clear, though the same text masked whole was right. Now the cut never parts a table's header from
its secret rows: the values are masked wherever the stream is cut."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text

PASSWORD = "Pq7-mZ2vLw9xRt4K"
KEY1, KEY2 = "A" * 84 + "q1w==", "B" * 84 + "q2w=="

VAULT = f"""====== Secret Path ======
secret/data/db

====== Data ======
Key         Value
---         -----
password    {PASSWORD}
username    svc
"""

AZ = f"""KeyName    Permissions    Value
---------  -------------  {'-' * 89}
key1       FULL           {KEY1}
key2       FULL           {KEY2}
"""


def _streamed(text: str, pad: int) -> str:
    filler = "".join(f"line {i}\n" for i in range(pad))
    redactor = StreamRedactor()
    redactor.BLOCK, redactor.OVERLAP = 512, 256  # the cut falls on each line for some filler
    redactor._next_at = 512
    data = (filler + text + filler).encode()
    out = b"".join(redactor.feed(data[i:i + 29]) for i in range(0, len(data), 29)) + redactor.close()
    return out.decode()[len(filler):len(out) - len(filler)]


@pytest.mark.parametrize(("text", "secrets"), [(VAULT, [PASSWORD]), (AZ, [KEY1, KEY2])])
def test_masked_wherever_cut(text: str, secrets: list[str]) -> None:
    whole = redact_text(text)
    expected = text
    for secret in secrets:
        expected = expected.replace(secret, MASK)
    assert whole == expected  # the header, the dashes and the other rows stay
    for pad in range(0, 120):
        assert _streamed(text, pad) == whole, pad
