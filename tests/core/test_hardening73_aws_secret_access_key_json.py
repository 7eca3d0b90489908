"""On an EC2 GPU host, a session that debugs why the model will not download from S3 reads the
role's credentials from the instance metadata (`curl http://169.254.169.254/latest/meta-data/iam/
security-credentials/ROLE`), or runs `aws sts assume-role` / `aws configure export-credentials`. In
their JSON the secret key is `"SecretAccessKey"`, joined: the access key's id and the session token
beside it were masked, the secret key itself stood in clear. Now it is masked too, as the JS SDK's
`secretAccessKey` is; an `accessKey` (a key's id as often) and the other fields stay."""

from __future__ import annotations

import json

import pytest

from spec_debug.redact import MASK, redact_text

SECRET = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"

# the instance metadata service's answer, spaced as it prints it ("Code" : "Success")
IMDS = """{
  "Code" : "Success",
  "LastUpdated" : "2026-12-07T10:00:00Z",
  "Type" : "AWS-HMAC",
  "AccessKeyId" : "ASIAIOSFODNN7EXAMPLE",
  "SecretAccessKey" : "%s",
  "Token" : "IQoJb3JpZ2luX2VjEJr//////////wEaCXVzLWVhc3QtMSJHMEUCIQ",
  "Expiration" : "2026-12-07T16:00:00Z"
}""" % SECRET


def test_instance_metadata_credentials() -> None:
    masked = json.loads(redact_text(IMDS))
    assert masked == {"Code": "Success", "LastUpdated": "2026-12-07T10:00:00Z", "Type": "AWS-HMAC",
                      "AccessKeyId": MASK, "SecretAccessKey": MASK, "Token": MASK,
                      "Expiration": "2026-12-07T16:00:00Z"}


@pytest.mark.parametrize("doc", [
    {"Credentials": {"AccessKeyId": "ASIAIOSFODNN7EXAMPLE", "SecretAccessKey": SECRET,
                     "SessionToken": "FwoGZXIvYXdzEBYaDHqa0AP", "Expiration": "2026-12-07T16:00:00+00:00"},
     "AssumedRoleUser": {"AssumedRoleId": "AROA3XFRBF23:ci", "Arn": "arn:aws:sts::123456789012:assumed-role/gpu/ci"}},
    {"Version": 1, "AccessKeyId": "AKIAIOSFODNN7EXAMPLE", "SecretAccessKey": SECRET},
])
def test_sts_and_export_credentials(doc: dict) -> None:
    for text in (json.dumps(doc), json.dumps(doc, indent=4)):
        masked = redact_text(text)
        assert SECRET not in masked
        assert masked == text.replace(SECRET, MASK).replace("ASIAIOSFODNN7EXAMPLE", MASK) \
            .replace("AKIAIOSFODNN7EXAMPLE", MASK).replace("FwoGZXIvYXdzEBYaDHqa0AP", MASK)


@pytest.mark.parametrize("text, masked", [
    (f"secretAccessKey: '{SECRET}'", f"secretAccessKey: '{MASK}'"),
    (f"SECRET_ACCESS_KEY={SECRET}", f"SECRET_ACCESS_KEY={MASK}"),
])
def test_other_spellings(text: str, masked: str) -> None:
    assert redact_text(text) == masked


@pytest.mark.parametrize("text", ["accessKey: minio-ci", '"AccessKeyName" : "ci-reader"'])
def test_ids_stay(text: str) -> None:
    assert redact_text(text) == text
