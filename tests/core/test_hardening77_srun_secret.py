"""`srun -p gpu -N 1 --gres=gpu:1 cat /run/secrets/hf_token` (a Slurm cluster's check that the
token is mounted on the GPU node the server will run on) prints the token bare, its output this
step's; secret_commands.py followed ssh and docker exec into the command they run, not srun, and
a real `--host local` run kept the token in run.json and the reports. Now srun is read past its
options (`-p gpu`, `-N 1`, `--gres gpu:1`: those that take the next word too, srun(1)) into its
command; `srun -p gpu -G 1 nvidia-smi` prints no secret."""

from __future__ import annotations

import stat

import pytest

from spec_debug.redact import MASK
from spec_debug.secret_commands import prints_secret_value
from tests.conftest import only_run, run_cli

TOKEN = "Rk7mQ2xW9pLt4VbN8sZc"


def test_a_token_printed_on_a_slurm_node_is_masked(tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    srun = bin_dir / "srun"  # the node's printenv: the value and a new line
    srun.write_text(f"#!/bin/sh\nprintf '%s\\n' '{TOKEN}'\n")
    srun.chmod(srun.stat().st_mode | stat.S_IEXEC)
    command = f"PATH={bin_dir}:$PATH srun -p gpu -N 1 --gres gpu:1 printenv HF_TOKEN"
    (tmp_path / "p.yaml").write_text(f"name: b\nsteps:\n  - id: token\n    run: {command}\n")
    out = tmp_path / "runs"
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(out))
    run_dir, record = only_run(out)
    assert result.code == 0, result.stderr
    assert record["steps"][0]["stdout"].splitlines() == [MASK]
    for text in ((run_dir / "run.json").read_text(), (run_dir / "report.md").read_text(), result.stderr):
        assert TOKEN not in text


@pytest.mark.parametrize(("command", "prints"), [
    ("srun -N1 cat /run/secrets/hf_token", True),
    ("srun -p gpu -N 1 --gres=gpu:1 cat /run/secrets/hf_token", True),
    ("srun --partition gpu --pty printenv HF_TOKEN", True),
    ("srun --time 10 --gres gpu:1 bash -c 'echo $HF_TOKEN'", True),
    ("srun -p gpu -G 1 nvidia-smi", False),
    ("srun -l hostname", False),
    ("srun -p gpu printenv HF_TOKEN | wc -c", False),
])
def test_srun_followed_into_its_command(command, prints):
    assert prints_secret_value(command) is prints
