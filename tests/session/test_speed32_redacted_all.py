"""records.redacted_all tests the strings of many records at once (the JSON output's cost on a
large session): whatever the batching, it must give what redacting record by record gives."""

from __future__ import annotations

import orjson

from spec_debug.redact import redact_value
from spec_debug.session.records import CommandRecord, FindingRecord, MetricRecord, redacted, redacted_all

SECRET = "hf_" + "aB3dE5gH7jK9mN1pQ3sT5vW7yZ9bC1dE3f"


def _records(n: int, secret_at: set[int]) -> list:
    out: list = []
    for i in range(n):
        command = f"export HF_TOKEN={SECRET}; python bench.py" if i in secret_at else f"ls /data/shard_{i:04d}"
        out.append(CommandRecord("s", i, "main", "gpu-node-3", command, 0, False, "inspect_config", command))
        out.append(MetricRecord("s", i, "main", "throughput", 50.0 + i, "tok/s", None, f"was {50 + i} tok/s"))
    out.append(FindingRecord("s", "SD501", 3, "main", "high", "slow", [f"token={SECRET}"], [3]))
    out.append({"plain": "dict", "token": SECRET})
    return out


def _one_by_one(records: list) -> list:
    return [redacted(r) if hasattr(r, "__dataclass_fields__") else redact_value(r) for r in records]


def test_a_secret_deep_in_a_batch_is_masked_as_record_by_record():
    records = _records(700, {5, 300, 699})  # three batches of 256, a secret in each
    batched = redacted_all(records, redact_value)
    assert orjson.dumps(batched) == orjson.dumps(_one_by_one(records))
    text = orjson.dumps(batched).decode()
    assert SECRET not in text
    assert "ls /data/shard_0006" in text  # the records around it are kept as they were


def test_records_without_secrets_are_kept_themselves():
    records = _records(600, set())[:-2]  # no finding, no dict
    batched = redacted_all(records, redact_value)
    assert all(a is b for a, b in zip(batched, records, strict=True))


def test_a_batch_with_other_items_redacts_them_as_before():
    records = ["token=" + SECRET, 7, *_records(3, set())]
    batched = redacted_all(records, redact_value)
    assert orjson.dumps(batched) == orjson.dumps(_one_by_one(records))
    assert SECRET not in orjson.dumps(batched).decode()
