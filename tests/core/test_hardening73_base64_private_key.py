"""A private key encoded in base64, as a kubeconfig holds its client's key (`client-key-data:
LS0tLS1CRUdJTi...`, what `kubectl config view --raw` or `cat ~/.kube/config` prints when a session
checks why it cannot reach the GPU cluster) and a TLS Secret its `tls.key`, stood in the run's
output and the postmortem in clear: no PEM marker to read, no secret's name before it. Now the
encoded key is masked, wrapped or not; the certificate beside it (public) stays."""

from __future__ import annotations

import base64
import json
import shutil
import subprocess
import textwrap
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, rsa
from cryptography.x509.oid import NameOID
import datetime

from spec_debug.redact import MASK, StreamRedactor, redact_text, redact_value, secret_spans

_RSA = rsa.generate_private_key(public_exponent=65537, key_size=2048)
_EC = ec.generate_private_key(ec.SECP256R1())
_ED = ed25519.Ed25519PrivateKey.generate()
_F = serialization.Encoding.PEM


def _pem(key, fmt, encryption=serialization.NoEncryption()) -> bytes:
    return key.private_bytes(_F, fmt, encryption)


_KEYS = {
    "rsa": _pem(_RSA, serialization.PrivateFormat.TraditionalOpenSSL),
    "ec": _pem(_EC, serialization.PrivateFormat.TraditionalOpenSSL),
    "pkcs8": _pem(_RSA, serialization.PrivateFormat.PKCS8),
    "openssh": _ED.private_bytes(_F, serialization.PrivateFormat.OpenSSH, serialization.NoEncryption()),
    "encrypted": _pem(_EC, serialization.PrivateFormat.PKCS8, serialization.BestAvailableEncryption(b"pw")),
}


def _cert() -> bytes:
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "dev")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(_RSA.public_key())
            .serial_number(1).not_valid_before(now).not_valid_after(now + datetime.timedelta(days=1))
            .sign(_RSA, hashes.SHA256()))
    return cert.public_bytes(_F)


_CERT_B64 = base64.b64encode(_cert()).decode()


@pytest.mark.parametrize("kind", sorted(_KEYS))
def test_kubeconfig_client_key_is_masked(kind: str) -> None:
    key = base64.b64encode(_KEYS[kind]).decode()
    text = (f"users:\n- name: dev\n  user:\n    client-certificate-data: {_CERT_B64}\n"
            f"    client-key-data: {key}\n")
    assert redact_text(text) == (f"users:\n- name: dev\n  user:\n    client-certificate-data: {_CERT_B64}\n"
                                 f"    client-key-data: {MASK}\n")


def test_tls_secret_json_and_its_dict() -> None:
    key = base64.b64encode(_KEYS["pkcs8"]).decode()
    doc = {"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
           "data": {"tls.crt": _CERT_B64, "tls.key": key}}
    assert json.loads(redact_text(json.dumps(doc)))["data"] == {"tls.crt": _CERT_B64, "tls.key": MASK}
    assert redact_value(doc)["data"] == {"tls.crt": _CERT_B64, "tls.key": MASK}


def test_wrapped_base64_is_masked_to_its_last_line() -> None:
    # `base64 key.pem` wraps at 76 characters
    key = base64.b64encode(_KEYS["rsa"]).decode()
    wrapped = "\n".join(textwrap.wrap(key, 76))
    text = f"$ base64 key.pem\n{wrapped}\n$ echo done\n"
    assert redact_text(text) == f"$ base64 key.pem\n{MASK}\n$ echo done\n"


def test_stream_masks_it_across_reads() -> None:
    key = base64.b64encode(_KEYS["openssh"]).decode()
    data = ("x" * 70 + "\n") * 1000 + f"    client-key-data: {key}\n" + "done\n"
    redactor = StreamRedactor()
    step = 997
    out = b"".join(redactor.feed(data.encode()[i:i + step]) for i in range(0, len(data), step)) + redactor.close()
    assert out.decode() == ("x" * 70 + "\n") * 1000 + f"    client-key-data: {MASK}\n" + "done\n"


@pytest.mark.parametrize("text", [
    f"client-certificate-data: {_CERT_B64}",
    "certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUM=",
    "echo LS0tLS1CRUdJTiBQVUJMSUMgS0VZLS0tLS0K | base64 -d",  # -----BEGIN PUBLIC KEY-----
], ids=["client-certificate", "certificate-authority", "public-key"])  # the certificate differs per process: pytest -n 2 collects the same ids
def test_public_material_stays(text: str) -> None:
    assert redact_text(text) == text
    assert secret_spans(text) == []


@pytest.mark.skipif(shutil.which("kubectl") is None, reason="kubectl not installed")
def test_kubectl_config_view_raw(tmp_path: Path) -> None:
    (tmp_path / "k.pem").write_bytes(_KEYS["rsa"])
    (tmp_path / "c.pem").write_bytes(_cert())
    env = {"KUBECONFIG": str(tmp_path / "config"), "PATH": "/usr/bin:/bin:/usr/local/bin", "HOME": str(tmp_path)}
    subprocess.run(["kubectl", "config", "set-credentials", "dev", f"--client-key={tmp_path / 'k.pem'}",
                    f"--client-certificate={tmp_path / 'c.pem'}", "--embed-certs=true"], env=env, check=True,
                   capture_output=True)
    shown = subprocess.run(["kubectl", "config", "view", "--raw"], env=env, check=True, capture_output=True,
                           text=True).stdout
    key = base64.b64encode(_KEYS["rsa"]).decode()
    assert f"client-key-data: {key}\n" in shown
    assert redact_text(shown) == shown.replace(key, MASK)


def test_openssl_base64_wrap_at_64() -> None:
    key = base64.b64encode(_KEYS["ec"]).decode()
    wrapped = "\n".join(textwrap.wrap(key, 64))
    assert redact_text(f"{wrapped}\n$ ok\n") == f"{MASK}\n$ ok\n"
