"""A session reads the serving key or the HF token from HashiCorp Vault: `vault kv get secret/llm`
prints the secret's data as a Key/Value table (its default -format=table: `Key  Value`, a line of
dashes, then `password    S3cr3t!`), and `vault read database/creds/ro` a dynamic secret's
`password` so. No "=" or ":" stands between a key and its value, so each secret stood in clear in
run.json, the artifact and an analysis. Now the value of a row whose key names a secret is masked;
the metadata table, the other rows (`model`, `username`, `lease_id`) and the layout stay."""

from __future__ import annotations

from spec_debug.redact import MASK, may_hold_secret, redact_text

KV_GET = """== Secret Path ==
secret/data/llm

======= Metadata =======
Key                Value
---                -----
created_time       2026-12-07T10:00:00.000000Z
custom_metadata    <nil>
deletion_time      n/a
destroyed          false
version            1

====== Data ======
Key             Value
---             -----
api_key         Zq8-local serving key
hf_token        Zq8xyzabc0
model           meta-llama/Llama-3.1-8B-Instruct
password        S3cr3t!
"""


def test_kv_get() -> None:
    want = (KV_GET.replace("Zq8-local serving key", MASK).replace("Zq8xyzabc0", MASK)
            .replace("S3cr3t!", MASK))
    assert redact_text(KV_GET) == want


READ_CREDS = """Key                Value
---                -----
lease_id           database/creds/readonly/2f6a614c-4aa2-7b19-24b9-ad944a8d4de6
lease_duration     1h
lease_renewable    true
password           A1a-Zq8xyzabc
username           v-root-readonly-x7v65y1
"""


def test_read_dynamic_credentials() -> None:
    assert may_hold_secret(READ_CREDS)
    assert redact_text(READ_CREDS) == READ_CREDS.replace("A1a-Zq8xyzabc", MASK)


def test_other_key_value_tables_stay() -> None:
    text = "Key        Value\n---        -----\nmodel      llama\ntp_size    8\n"
    assert redact_text(text) == text
