"""A secret file given to a command on its standard input rather than named: `tr -d '\\n' <
/run/secrets/hf_token` (the token without its new line, to compare with what the server got),
`base64 -w0 < ~/.vllm_api_key`, `echo "$(< /run/secrets/hf_token)"` (bash's own cat of a file).
secret_commands.py knew `cat /run/secrets/hf_token` prints the value but skipped a `<` and its
file, so none of these was a step printing a secret: a `--host local` run kept the token in clear
in run.json and the reports. Now a secret file on a command's standard input is read as `cat` of
it piped in: a command that passes it on prints it (the output is masked whole); `wc -c <`,
`sha256sum <`, `docker login --password-stdin <` and a curl header built from `$(< file)` print
none of it."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7mZ2vLw9xRt4K"


def test_a_secret_file_on_stdin_is_masked(tmp_path):
    secret = tmp_path / "hf_token"
    secret.write_text(VALUE + "\n")
    (tmp_path / "p.yaml").write_text(
        f"name: b\nsteps:\n  - id: bare\n    run: tr -d '\\n' < {secret}; echo\n"
        f"  - id: size\n    run: wc -c < {secret}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert [step["stdout"] for step in record["steps"]] == [f"{MASK}\n", f"{len(VALUE) + 1}\n"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("tr -d '\\n' < /run/secrets/hf_token", True),
    ("base64 -w0 < ~/.vllm_api_key", True),
    ('echo "$(< /run/secrets/hf_token)"', True),
    ("head -c 8 < /run/secrets/hf_token", True),
    ("wc -c < /run/secrets/hf_token", False),
    ("sha256sum < /run/secrets/hf_token", False),
    ("docker login -u me --password-stdin < /run/secrets/registry_password", False),
    ('curl -s -H "Authorization: Bearer $(< /run/secrets/hf_token)" http://127.0.0.1:30000/v1/models', False),
    ("tr -d '\\n' < config.json", False),
])
def test_a_secret_file_on_stdin(command, prints):
    assert prints_secret_value(command) is prints
