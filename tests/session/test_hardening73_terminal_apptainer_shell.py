"""``apptainer shell --nv sglang.sif`` (``singularity shell``), the HPC way into an SGLang image:
its prompt is ``Apptainer> `` (``Singularity> `` before Apptainer 1.0; the image's
``/.singularity.d/env/99-base.sh`` sets it). Before, no such line was a prompt: the commands typed
there (``nvidia-smi -L``, the import check) were lost in the shell command's output. Now each is a
command on the machine the image runs on, and the shell's ``exit`` leaves the image's shell, not
the ssh login around it."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
$ ssh login01
Last login: Mon Dec  7 09:01:02 2026 from 10.0.0.5
$ apptainer shell --nv /scratch/images/sglang.sif
Apptainer> nvidia-smi -L
GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5e0c)
Apptainer> python3 -c 'import sglang; print(sglang.__version__)'
0.4.6.post1
Apptainer> exit
exit
$ singularity shell --nv sglang.sif
Singularity> python3 -c 'import torch; print(torch.cuda.is_available())'
True
Singularity> exit
exit
$ hostname
login01
$ exit
logout
Connection to login01 closed.
$ ls
bench.py
"""


def test_commands_at_the_images_prompt(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    got = [(c["host"], c["command"]) for c in analyze_path(path).to_json()["commands"]]
    assert got == [
        ("login01", "ssh login01"), ("login01", "apptainer shell --nv /scratch/images/sglang.sif"),
        ("login01", "nvidia-smi -L"), ("login01", "python3 -c 'import sglang; print(sglang.__version__)'"),
        ("login01", "exit"), ("login01", "singularity shell --nv sglang.sif"),
        ("login01", "python3 -c 'import torch; print(torch.cuda.is_available())'"), ("login01", "exit"),
        ("login01", "hostname"), ("login01", "exit"), (None, "ls"),
    ]
