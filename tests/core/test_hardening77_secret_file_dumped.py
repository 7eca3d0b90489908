"""A secret file printed in another form, to see what is at its end: `od -c /run/secrets/hf_token`
or `xxd` (a new line or a carriage return after the token, the 401 whose key looks right),
`hexdump -C ~/.cache/huggingface/token`, `base64 ~/.vllm_api_key`. secret_commands.py knew only
cat, head and tail print a secret file, so these steps were not ones printing a secret: a real
`--host local` run kept the token in run.json and the reports one character at a time (`P   q
7   m ...`), which no pattern reads as a secret. Now the commands that print the files they are
given (od, xxd, hexdump, base64, tac, nl, strings, cut, ...) print a secret file's value too, and
the step's output is masked whole; `od -c server.log` and `od -c ... | wc -l` keep theirs."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7mZ2vLw9xRt4K"


def test_a_secret_file_dumped_with_od_is_masked(tmp_path):
    secret = tmp_path / "hf_token"
    secret.write_text(VALUE + "\r\n")
    (tmp_path / "p.yaml").write_text(f"name: b\nsteps:\n  - id: dump\n    run: od -c {secret}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert set(record["steps"][0]["stdout"].splitlines()) == {MASK}
    spaced = "   ".join(VALUE[:6])  # od -c's columns: "P   q   7   m   Z   2"
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text and spaced not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("od -c /run/secrets/hf_token", True),
    ("xxd /run/secrets/hf_token", True),
    ("hexdump -C ~/.cache/huggingface/token", True),
    ("base64 ~/.vllm_api_key", True),
    ("od -A x -t x1z /run/secrets/hf_token | tail -2", True),
    ("cut -c 1-8 /run/secrets/hf_token", True),
    ("od -c /run/secrets/hf_token | wc -l", False),
    ("od -c server.log", False),
    ("strings model.safetensors | head", False),
])
def test_a_secret_file_printed_in_another_form(command, prints):
    assert prints_secret_value(command) is prints
