"""The commands typed in a container's shell (``docker exec -it sglang bash``) lost the folder the
container's prompt shows (``root@a1b2c3d4e5f6:/sgl-workspace/sglang#``): their ``cwd`` was None,
as for ``docker exec sglang CMD`` typed at the host's prompt (which runs in the container's
WORKDIR, not the host shell's folder). The prompt is the container's own shell's: its folder is
the one the command ran in there (a ``pip install -e "python[all]"`` there installs the SGLang
checkout, ``tail srv.log`` reads /models/srv.log). The user stays the host login's (None here):
``user`` is who reaches the host (distill's ssh hop), not the container's root. No docker daemon
on the machine this was written on: the log follows docker's prompt shape."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """me@laptop:~$ ssh ubuntu@gpu01
Last login: Mon Dec  7 06:00:00 2026 from 10.0.0.2
ubuntu@gpu01:~/work$ docker exec sglang ls
sglang
ubuntu@gpu01:~/work$ docker exec -it sglang bash
root@a1b2c3d4e5f6:/sgl-workspace# cd sglang
root@a1b2c3d4e5f6:/sgl-workspace/sglang# pip install -e "python[all]"
Successfully installed sglang-0.4.9
root@a1b2c3d4e5f6:/sgl-workspace/sglang# cd /models
root@a1b2c3d4e5f6:/models# tail srv.log
root@a1b2c3d4e5f6:/models# exit
exit
ubuntu@gpu01:~/work$ ls
ubuntu@gpu01:~/work$ exit
logout
Connection to gpu01 closed.
me@laptop:~$ hostname
laptop
"""


def test_a_container_shells_folder_is_kept(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text(LOG)
    doc = analyze_path(path).to_json()
    assert [(c["command"], c["host"], c["container"], c["cwd"], c["user"]) for c in doc["commands"]] == [
        ("ssh ubuntu@gpu01", "gpu01", None, None, "ubuntu"),
        ("docker exec sglang ls", "gpu01", "docker:sglang", None, None),
        ("docker exec -it sglang bash", "gpu01", "docker:sglang", None, None),
        ("cd sglang", "gpu01", "docker:sglang", "/sgl-workspace", None),
        ('pip install -e "python[all]"', "gpu01", "docker:sglang", "/sgl-workspace/sglang", None),
        ("cd /models", "gpu01", "docker:sglang", "/sgl-workspace/sglang", None),
        ("tail srv.log", "gpu01", "docker:sglang", "/models", None),
        ("exit", "gpu01", "docker:sglang", "/models", None),
        ("ls", "gpu01", None, "~/work", "ubuntu"),
        ("exit", "gpu01", None, "~/work", "ubuntu"),
        ("hostname", "laptop", None, "~", "me")]
