"""A secret that reaches the step's output through a heredoc: a step that previews the config it
is about to write,

    cat <<EOF
    [api]
    url = http://127.0.0.1:30000
    auth = $(vault kv get -field=api_key secret/vllm)
    EOF

prints the key (the shell expands `$(...)` in an unquoted heredoc's body), and `bash <<'EOF'` or
`ssh gpu02 <<'EOF'` with `cat /run/secrets/hf_token` in the body runs the body as a script whose
output is the step's. secret_commands.py read the body's lines as commands of their own
(`auth` run with `= $(...)`) and the step was not one printing a secret: a `--host local` run
kept the value in clear in run.json and the reports. Now a heredoc's body is what its command
reads: a command that passes its input on given an expanded body holding a secret prints it, a
shell that reads the body runs it, and the output is masked whole; a quoted `<<'EOF'` body read
by cat is text, not expanded, and a body written to a file prints nothing."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7-mZ2vLw9xRt4K"


def test_a_heredoc_that_expands_a_secret_is_masked(tmp_path):
    secret = tmp_path / "api_key"
    secret.write_text(VALUE + "\n")
    (tmp_path / "p.yaml").write_text(
        "name: b\nsteps:\n  - id: preview\n    run: |\n      cat <<EOF\n      [api]\n"
        f"      url = http://127.0.0.1:30000\n      auth = $(cat {secret})\n      EOF\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"] == f"{MASK}\n{MASK}\n{MASK}\n"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("cat <<EOF\nauth = $(vault kv get -field=api_key secret/vllm)\nEOF", True),
    ("cat <<EOF | base64\nauth = $(vault kv get -field=api_key secret/vllm)\nEOF", True),
    ("KEY=$(vault kv get -field=api_key secret/vllm)\ncat <<EOF\nauth = $KEY\nEOF", True),
    ("bash <<'EOF'\nset -e\nvault kv get -field=token secret/hf\nEOF", True),
    ("ssh gpu02 <<'EOF'\ncat /run/secrets/hf_token\nEOF", True),
    ("docker exec -i vllm sh <<'EOF'\ncat /run/secrets/hf_token\nEOF", True),
    ("cat <<'EOF'\nauth = $(vault kv get -field=api_key secret/vllm)\nEOF", False),
    ("cat > /etc/vllm/api.ini <<EOF\nauth = $(vault kv get -field=api_key secret/vllm)\nEOF", False),
    ("cat <<EOF | kubectl apply -f -\ndata:\n  token: $(vault kv get -field=token secret/hf)\nEOF", False),
    ("KEY=$(vault kv get -field=api_key secret/vllm)\ncat <<EOF\nauth = set\nEOF", False),
    ("ssh gpu02 <<'EOF'\nnvidia-smi\nEOF", False),
    ("python3 - <<'EOF'\nimport os\nprint(len(os.environ['HF_TOKEN']))\nEOF", False),
])
def test_a_heredoc_is_what_its_command_reads(command, prints):
    assert prints_secret_value(command) is prints
