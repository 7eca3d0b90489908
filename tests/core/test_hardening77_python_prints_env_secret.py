"""A one-line Python check of a secret the environment holds: `python3 -c 'import os;
print(os.environ["HF_TOKEN"])'`, or inside the serving container, `docker exec vllm python3 -c
"import os; print(os.environ.get('VLLM_API_KEY'))"` (is the key the server reads the one the client
sends?). The value was set outside the step and has no shape a pattern knows, and the step was
not read as one printing a secret: a real `--host local` run kept the key in clear in run.json and
the reports. Now a `python -c` script that prints an environment variable named for a secret
(os.environ[...], os.environ.get(...), os.getenv(...)) prints a secret, and the step's output is
masked whole; `print(len(os.environ["HF_TOKEN"]))` and a non-secret variable keep theirs."""

from __future__ import annotations

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

VALUE = "Pq7mZ2vLw9xRt4K"


def test_python_printing_a_secret_env_var_is_masked(tmp_path):
    (tmp_path / "p.yaml").write_text(
        "name: b\nsteps:\n  - id: key\n    run: python3 -c 'import os; print(os.environ.get(\"VLLM_API_KEY\"))'\n"
        "  - id: size\n    run: python3 -c 'import os; print(len(os.environ[\"VLLM_API_KEY\"]))'\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out),
                     env={"VLLM_API_KEY": VALUE})
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert [step["stdout"] for step in record["steps"]] == [f"{MASK}\n", f"{len(VALUE)}\n"]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert VALUE not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("python3 -c 'import os; print(os.environ[\"HF_TOKEN\"])'", True),
    ("docker exec vllm python3 -c \"import os; print(os.environ.get('VLLM_API_KEY'))\"", True),
    ("python -c 'import os;print(os.getenv(\"HF_TOKEN\"))'", True),
    ("python3 -c 'import os; print(len(os.environ[\"HF_TOKEN\"]))'", False),
    ("python3 -c 'import os; print(os.environ[\"CUDA_VISIBLE_DEVICES\"])'", False),
    ("python3 -c 'import os; print(\"HF_TOKEN\" in os.environ)'", False),
    ("python3 -c 'import torch; print(torch.__version__)'", False),
])
def test_python_printing_an_env_var(command, prints):
    assert prints_secret_value(command) is prints
