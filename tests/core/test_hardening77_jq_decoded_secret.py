"""A Kubernetes Secret's field decoded inside jq: `kubectl get secret hf -o json | jq -r
'.data.token | @base64d'` (the usual one-liner to read what the serving pod gets as HF_TOKEN), or
`jq -r '.password | tostring' creds.json`. secret_commands.py read the jq filter's last stage as the
field printed, `@base64d`, no secret's name, so the step was not one printing a secret: a real
`--host local` run kept the decoded token in clear in run.json and the reports. Now the stages
that print the value they are given (@base64d, @text, tostring, ltrimstr(...), ...) are passed
over to the field before them; `.data.token | @base64d | length` and `.data | keys` keep theirs."""

from __future__ import annotations

import base64
import json
import shutil

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7mZ2vLw9xRt4K"


@pytest.mark.skipif(shutil.which("jq") is None, reason="needs jq")
def test_a_secret_decoded_by_jq_is_masked(tmp_path):
    secret = tmp_path / "hf.json"  # what `kubectl get secret hf -o json` prints
    secret.write_text(json.dumps({"kind": "Secret", "data": {"token": base64.b64encode(VALUE.encode()).decode()}}))
    (tmp_path / "p.yaml").write_text(
        f"name: b\nsteps:\n  - id: decode\n    run: cat {secret} | jq -r '.data.token | @base64d'\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("kubectl get secret hf -o json | jq -r '.data.token | @base64d'", True),
    ("kubectl get secret hf -o json | jq -r '.data.HF_TOKEN|@base64d'", True),
    ("kubectl get secret hf -o json | jq -r '.data[\"api-key\"] | @base64d'", True),
    ("jq -r '.password | tostring' creds.json", True),
    ("yq '.auth.api_key | @base64d' values.yaml", True),
    ("kubectl get secret hf -o json | jq -r '.data.token | @base64d | length'", False),
    ("kubectl get secret hf -o json | jq -r '.data | keys'", False),
    ("kubectl get secret hf -o json | jq -r '.metadata.name | @text'", False),
])
def test_a_decoded_field(command, prints):
    assert prints_secret_value(command) is prints
