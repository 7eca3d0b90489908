"""`cat /run/secrets/hf_token`: Docker and Compose mount each secret as a file of its own under
/run/secrets (Kubernetes a Secret's volume, a file per key), and a step reads it to see that the
secret is there; so does `cat /etc/vllm/api-key.txt` or `cat ~/.vllm_api_key`. The file holds
the value alone, no name and (for a password or a self-made API key) no token shape: a real
`--host local` run kept it in clear in run.json and the reports. Now a file mounted as a secret
or named for one is read as a secret command: its output is masked whole. /etc/passwd, a
service account's namespace, `tokenizer_config.json` and a file's length (`| wc -c`) stay."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"


def test_a_secret_file_read_is_masked(tmp_path):
    secret = tmp_path / "api-key.txt"
    secret.write_text(VALUE + "\n")
    (tmp_path / "p.yaml").write_text(f"name: f\nsteps:\n  - id: read\n    run: cat {secret}\n"
                                     f"  - id: size\n    run: cat {secret} | wc -c\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert [s["stdout"] for s in record["steps"]] == [f"{MASK}\n", "17\n"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(),
                 (run_dir / "report.html").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("cat /run/secrets/hf_token", True),
    ("cat /run/secrets/db-password; echo", True),
    ("sudo cat /var/run/secrets/kubernetes.io/serviceaccount/token", True),
    ("cat ~/.cache/huggingface/token", True),
    ("cat ~/.vllm_api_key", True),
    ("cat /var/run/secrets/kubernetes.io/serviceaccount/namespace", False),
    ("cat /etc/passwd", False),
    ("cat tokenizer_config.json", False),
    ("cat ~/.ssh/id_rsa.pub", False),
    ("cat /run/secrets/hf_token | wc -c", False),
    ("test -s /run/secrets/hf_token && echo present", False),
    ("tail -n 50 /var/log/vllm/server.log", False),
])
def test_secret_files(command: str, prints: bool) -> None:
    assert prints_secret_value(command) is prints
