"""An Azure account's keys printed by the az CLI as a table or as TSV stood in clear. `az storage
account keys list -o table` prints the columns CreationTime, KeyName, Permissions and Value (knack's
table output: tabulate's "simple" format, a line of dashes under the headers), `-o tsv` the values
alone (`<time>\tkey1\tFULL\t<key>`), `az redis list-keys -o table` PrimaryKey and SecondaryKey: no
name stands before each key, so only the JSON's "value" was masked. Now the keys in those columns and
rows are masked (text, streams, secret_spans); a table whose Value column sits beside no KeyName, or
a cell of another shape, stays."""

from __future__ import annotations

import base64

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text, secret_spans

KEY1 = base64.b64encode(bytes(range(7, 71))).decode()  # 88 characters, as Azure's account keys
KEY2 = base64.b64encode(bytes(range(90, 154))).decode()
WHEN = "2026-03-02T10:41:07.123456+00:00"
DASH = "-" * 88

TABLE = (f"CreationTime                      KeyName    Permissions    Value\n"
         f"--------------------------------  ---------  -------------  {DASH}\n"
         f"{WHEN}  key1       FULL           {KEY1}\n"
         f"{WHEN}  key2       FULL           {KEY2}\n")
TSV = f"{WHEN}\tkey1\tFULL\t{KEY1}\n{WHEN}\tkey2\tFULL\t{KEY2}\n"
REDIS = (f"PrimaryKey{' ' * 36}SecondaryKey\n{'-' * 44}  {'-' * 44}\n{KEY1[:44]}  {KEY2[:44]}\n")


@pytest.mark.parametrize("text", [TABLE, TSV, TSV.replace("\n", "\r\n"), REDIS])
def test_keys_masked(text: str) -> None:
    masked = redact_text(text)
    assert KEY1[:44] not in masked and KEY2[:44] not in masked
    assert masked.count(MASK) == 2
    assert masked == text.replace(KEY1 if KEY1 in text else KEY1[:44], MASK).replace(KEY2 if KEY2 in text else KEY2[:44], MASK)
    assert len(secret_spans(text)) == 2
    redactor = StreamRedactor()
    assert (redactor.feed(text.encode()) + redactor.close()).decode() == masked


def test_table_rest_stays() -> None:
    assert redact_text(TABLE) == TABLE.replace(KEY1, MASK).replace(KEY2, MASK)
    assert redact_text(TABLE).splitlines()[2] == f"{WHEN}  key1       FULL           {MASK}"


@pytest.mark.parametrize("text", [
    "Name     Value\n-------  -----\ngpu      8\nkey1     FULL\n",  # a Value column, no KeyName
    "KeyName    Value\n---------  -----------\nhostname   gpu-node-01\n",  # no key's shape
    f"Name\tFULL\t{KEY1}\n",  # a TSV row with no key1/key2
])
def test_other_tables_stay(text: str) -> None:
    assert redact_text(text) == text
