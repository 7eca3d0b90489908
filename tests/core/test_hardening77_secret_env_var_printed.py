"""A step that prints a secret the host's environment holds, to check it is set: `printenv
VLLM_API_KEY`, `echo "$VLLM_API_KEY"`, `docker exec vllm printenv HF_TOKEN` (is the key the server
checks the one the client sends?). The value was set outside the step, so no pattern knows it and
no secret command printed it: a real `--host local` run kept the key in clear in run.json and the
reports. Now printenv of a variable named for a secret (redact.is_secret_name), and echo or printf
of its value (`$NAME`, `${NAME}`, `${NAME:0:8}`), print a secret, and the step's output is masked
whole; `echo ${#HF_TOKEN}` (its length), `echo ${HF_TOKEN:+set}`, `printenv CUDA_VISIBLE_DEVICES`
and `echo $PATH` keep theirs."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7mZ2vLw9xRt4K"

PLAYBOOK = """\
name: key
steps:
  - id: printenv
    run: printenv VLLM_API_KEY
  - id: echo
    run: echo "client sends $VLLM_API_KEY"
  - id: length
    run: printenv VLLM_API_KEY | wc -c
"""


def test_a_secret_env_var_printed_is_masked(tmp_path):
    (tmp_path / "p.yaml").write_text(PLAYBOOK)
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out),
                     env={"VLLM_API_KEY": VALUE})
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert [step["stdout"] for step in record["steps"]] == [f"{MASK}\n", f"{MASK}\n", f"{len(VALUE) + 1}\n"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("printenv VLLM_API_KEY", True),
    ("printenv HF_TOKEN", True),
    ('echo "$VLLM_API_KEY"', True),
    ("echo ${HF_TOKEN}", True),
    ('printf "%s\\n" "${HF_TOKEN:0:8}"', True),
    ("docker exec vllm printenv VLLM_API_KEY", True),
    ("kubectl exec vllm-0 -- printenv HF_TOKEN", True),
    ("echo $HF_TOKEN | cut -c1-8", True),
    ("echo ${#HF_TOKEN}", False),
    ('echo "token: ${HF_TOKEN:+set}"', False),
    ("echo $HF_TOKEN | wc -c", False),
    ("printenv CUDA_VISIBLE_DEVICES", False),
    ("echo $PATH", False),
    ("echo $TOKENIZERS_PARALLELISM", False),
])
def test_a_secret_env_var(command, prints):
    assert prints_secret_value(command) is prints
