"""A secret that reaches a printing command as a file or on its standard input, not through a pipe:
`diff <(vault kv get -field=token secret/hf) <(vault kv get -field=token secret/hf-next)` (did the
rotated token change?) prints both values on the lines where they differ; `cat < <(...)`,
`base64 -d <<< "$(kubectl get secret hf -o jsonpath='{.data.token}')"` and `base64 -d <<<
"$TOKEN"` print it too. secret_commands.py read the process substitutions as command
substitutions of a command that is not echo, and skipped a here-string's word, so none of these
steps was one printing a secret: a `--host local` run kept both values in clear in run.json and the
reports. Now what a command reads is followed: a command that passes its input on (cat, base64,
diff without -q, ...) given a secret that way prints it, and its output is masked whole;
`sha256sum <(...)`, `wc -c < <(...)`, `docker login --password-stdin <<< "$TOKEN"` print none."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

OLD, NEW = "Pq7-mZ2vLw9xRt4K", "Hn3-cV8bQs1yTe6W"


def test_a_diff_of_two_secret_files_is_masked(tmp_path):
    for name, value in (("old", OLD), ("new", NEW)):
        (tmp_path / name).mkdir()
        (tmp_path / name / "hf_token").write_text(value + "\n")
    (tmp_path / "p.yaml").write_text(
        "name: b\nsteps:\n  - id: rotated\n"
        f"    run: diff <(cat {tmp_path}/old/hf_token) <(cat {tmp_path}/new/hf_token) || true\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert MASK in record["steps"][0]["stdout"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert OLD not in text and NEW not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("diff <(vault kv get -field=token secret/hf) <(vault kv get -field=token secret/hf-next)", True),
    ("cat < <(vault kv get -field=password secret/db)", True),
    ("base64 -d <<< \"$(kubectl get secret hf -o jsonpath='{.data.token}')\"", True),
    ("base64 -d <<< $(kubectl get secret hf -o jsonpath='{.data.token}')", True),
    ("TOKEN=$(vault kv get -field=token secret/hf); base64 <<< \"$TOKEN\"", True),
    ("diff -q <(vault kv get -field=token secret/hf) <(vault kv get -field=token secret/hf-next)", False),
    ("diff <(vault kv get -field=token secret/hf) <(vault kv get -field=token secret/hf-next) > /dev/null", False),
    ("sha256sum <(vault kv get -field=token secret/hf)", False),
    ("wc -c < <(vault kv get -field=password secret/db)", False),
    ("TOKEN=$(vault kv get -field=token secret/hf); docker login -u me --password-stdin <<< \"$TOKEN\"", False),
    ("echo <(vault kv get -field=token secret/hf)", False),
    ("diff <(cat a.txt) <(cat b.txt)", False),
])
def test_a_secret_read_as_a_file_or_on_stdin(command, prints):
    assert prints_secret_value(command) is prints
