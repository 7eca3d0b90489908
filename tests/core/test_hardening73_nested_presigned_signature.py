"""A pre-signed URL passed, percent-encoded, as another URL's parameter (a download or redirect
service's `?url=` / `?next=`, as a session's curl or a proxy's access log shows it) kept its
signature in clear: its "?", "&" and "=" are %3F, %26 and %3D there, and the signature pattern read
them only as written. The URL grants the object to whoever holds it until it expires. Now the
signature is masked to the next encoded "&", once or twice encoded; the other parameters stay."""

from __future__ import annotations

from urllib.parse import quote, urlencode

import pytest

from spec_debug.redact import MASK, redact_text, secret_spans


_RECORDED = {
    # what boto3 1.43 signed with the credentials below (botocore's generate_presigned_url)
    "s3v4": "https://ckpts.s3.amazonaws.com/eagle3/model.safetensors?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            "&X-Amz-Credential=AKIDEXAMPLEEXAMPLE00%2F20261207%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261207T102104Z"
            "&X-Amz-Expires=3600&X-Amz-SignedHeaders=host"
            "&X-Amz-Signature=e052c52c34c860487f9de7ea26af39b8d6902177a3c296a3f61f8a58fcae960d",
    "s3": "https://ckpts.s3.amazonaws.com/eagle3/model.safetensors?AWSAccessKeyId=AKIDEXAMPLEEXAMPLE00"
          "&Signature=ABktbTpXRjyg4aTo%2B1SIHmjkBYc%3D&Expires=1796642464",
}


def _presigned(version: str) -> str:
    """A real pre-signed GET, as boto3 signs it (offline: the signature is computed locally), or
    the one it signed when this test was written where boto3 is not installed."""
    try:
        import boto3
        from botocore.config import Config
    except ImportError:
        return _RECORDED[version]
    s3 = boto3.client("s3", region_name="us-east-1", aws_access_key_id="AKIDEXAMPLEEXAMPLE00",
                      aws_secret_access_key="wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                      config=Config(signature_version=version))
    return s3.generate_presigned_url("get_object", Params={"Bucket": "ckpts", "Key": "eagle3/model.safetensors"},
                                     ExpiresIn=3600)


def _signature(url: str) -> str:
    name = "X-Amz-Signature=" if "X-Amz-Signature=" in url else "Signature="
    return url.split(name, 1)[1].split("&", 1)[0]


# ids: a URL signed now differs per process and second, and pytest -n 2 must collect the same ids
@pytest.mark.parametrize("url", [_presigned("s3v4"), _presigned("s3"), *_RECORDED.values()],
                         ids=["s3v4-signed-now", "s3-signed-now", "s3v4-recorded", "s3-recorded"])
def test_once_encoded_in_a_query(url: str) -> None:
    sig = _signature(url)
    text = "curl -sL 'https://dl.example.internal/fetch?" + urlencode({"url": url, "dest": "/models/x"}) + "'"
    masked = redact_text(text)
    assert quote(sig, safe="") not in masked
    assert masked == text.replace(quote(sig, safe=""), MASK)
    assert masked.endswith("&dest=%2Fmodels%2Fx'")


def test_twice_encoded() -> None:
    url = _presigned("s3v4")
    sig = _signature(url)
    inner = "https://login.example.internal/?" + urlencode({"next": url})
    text = "GET /redirect?" + urlencode({"to": inner, "lang": "en"}) + " HTTP/1.1"
    masked = redact_text(text)
    assert sig not in masked
    assert masked == text.replace(sig, MASK)
    assert masked.endswith("&lang=en HTTP/1.1")


def test_lower_case_hex_and_azure_sig() -> None:
    text = ("https://proxy.internal/get?u=https%3a%2f%2facct.blob.core.windows.net%2fc%2fm.bin%3fsv%3d2022-11-02"
            "%26sp%3dr%26sig%3dAbC%252Bdef%253D%26se%3d2026-01-01&x=1")
    assert redact_text(text) == text.replace("AbC%252Bdef%253D", MASK)


@pytest.mark.parametrize("text", [
    "design%3Dflat&signature%3Dnone",        # lower-case name: no S3/GCS parameter
    "see the Signature% column in the table",
    "Designature%3Dx",
    "https://x.example/?q=sig%20figs",
])
def test_no_signature_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []
