"""An Azure SAS (read access to a container of checkpoints until `se`) stood in clear in two real
shapes. `az storage blob generate-sas ... -o tsv` and `az storage container generate-sas` print
the token alone, no URL (`se=2026-01-01&sp=rl&sv=2022-11-02&sr=c&sig=...`), and the signature
pattern only ran where the text held "://". And Azure's SDKs read the parameters in any case
(Azure.Storage.Sas SasQueryParameters: "sig" and its SignatureUpper "SIG"), so a hand-built URL's
`&SIG=` or `&Sig=` works, and was kept. Now the signature is masked in each; the other parameters
(expiry, permissions, version) stay, what a 403 postmortem reads."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK, StreamRedactor, redact_text

SIG = "Xk3vJ0aB9qLm2R7tYwE5uPz8cN1dF4gH6iK0oS2%2Bq%3D"


@pytest.mark.parametrize("text, masked", [
    (f"se=2026-01-01T00%3A00Z&sp=rl&sv=2022-11-02&sr=c&sig={SIG}",
     f"se=2026-01-01T00%3A00Z&sp=rl&sv=2022-11-02&sr=c&sig={MASK}"),
    (f'export AZURE_SAS="?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01&sig={SIG}"',
     f'export AZURE_SAS="?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01&sig={MASK}"'),
    (f"azcopy copy 'https://ckpts.blob.core.windows.net/eagle3?sv=2022-11-02&sr=c&sp=rl&se=2026-01-01&SIG={SIG}' /models",
     f"azcopy copy 'https://ckpts.blob.core.windows.net/eagle3?sv=2022-11-02&sr=c&sp=rl&se=2026-01-01&SIG={MASK}' /models"),
    (f"https://ckpts.blob.core.windows.net/eagle3/model.safetensors?Sig={SIG}&sv=2022-11-02&sp=r",
     f"https://ckpts.blob.core.windows.net/eagle3/model.safetensors?Sig={MASK}&sv=2022-11-02&sp=r"),
])
def test_signature_masked(text: str, masked: str) -> None:
    assert redact_text(text) == masked


def test_stream() -> None:
    data = ((f"se=2026-01-01&sp=rl&sv=2022-11-02&sr=c&sig={SIG}\n" + "log line\n" * 500) * 20).encode()
    stream = StreamRedactor()
    out = b"".join(stream.feed(data[at:at + 4096]) for at in range(0, len(data), 4096)) + stream.close()
    assert SIG.encode() not in out and out.count(MASK.encode()) == 20


@pytest.mark.parametrize("text", [
    "kill -s SIGTERM 1234; sig=15",  # no query
    "ps -o pid,sig= 1234",
    "https://example.org/api?signal=TERM&sigma=0.5",
])
def test_kept(text: str) -> None:
    assert redact_text(text) == text
