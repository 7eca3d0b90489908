"""fish's default prompt shows the user before the host, ``root@gpu12 ~/w# `` (fish 3.6.0
``share/functions/fish_prompt.fish``: ``$USER@$hostname``), as zsh's walters theme does
(``me@gpu01:~/sglang>``). Before: the commands typed there had no user, where a bash or zsh prompt
gives its own, so distill told the reader to run the playbook with ``--host gpu12`` (ssh's default
user, not the one the session logged in as). Now the user the prompt shows is the command's, and
distill says ``--host root@gpu12``. The typescript is a fish 3.6.0 session (``fish -N -i``)
recorded with util-linux script 2.38.1 (hostname set with unshare --uts)."""

from __future__ import annotations

from pathlib import Path

import yaml

from spec_debug.session import analyze_path
from tests.conftest import run_cli

FISH_ROOT = b"".join([
    b'Script started on 2026-12-07 13:39:03+00:00 [COMMAND="fish -N -i" <not executed on terminal>]\n',
    b'\x1b]0;~\x07\x1b[30m\x1b(B\x1b[m\r',
    b'root\x1b(B\x1b[m@gpu12\x1b(B\x1b[m ~\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[14Ccd \r',
    b'\x1b[17C~/w\r',
    b'\x1b[20C\x08\x08\x08\x08\x08\x08cd ~/w\r',
    b'\x1b[20C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;cd ~/w ~\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;~/w\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@gpu12\x1b(B\x1b[m ~/w\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[16Cpython3 \r',
    b'\x1b[24C-c \r',
    b'\x1b[27C"import \r',
    b'\x1b[35Csys;\r',
    b'\x1b[39C \r',
    b"\x1b[40Cprint('loading \r",
    b"\x1b[55Cdraft')\r",
    b'\x1b[62C;\r',
    b'\x1b[63C \r',
    b'\x1b[64Csys.exit(3)\r',
    b'\x1b[75C"\r',
    b'\x1b[76C\x1b[60Dpython3 -c "import sys; print(\'loading draft\'); sys.exit(3)"\r',
    b'\x1b[76C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;python3 -c "import s ~/w\x07\x1b[30m\x1b(B\x1b[m\r',
    b'loading draft\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;~/w\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@gpu12\x1b(B\x1b[m ~/w\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m3\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[20Cnvidia-smi \r',
    b'\x1b[31C-L\r',
    b'\x1b[33C\x1b[13Dnvidia-smi -L\r',
    b'\x1b[33C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;nvidia-smi -L ~/w\x07\x1b[30m\x1b(B\x1b[m\r',
    b'fish: Unknown command: nvidia-smi\r\n',
    b'\x1b[2m\xe2\x8f\x8e\x1b(B\x1b[m                                                                               \r',
    b'\xe2\x8f\x8e \r',
    b'\x1b[K\x1b]0;~/w\x07\x1b[30m\x1b(B\x1b[mroot\x1b(B\x1b[m@gpu12\x1b(B\x1b[m ~/w\x1b(B\x1b[m\x1b(B\x1b[m \x1b(B\x1b[m\x1b[31m[\x1b[1m\x1b[31m127\x1b(B\x1b[m\x1b[31m]\x1b(B\x1b[m\x1b(B\x1b[m# \x1b[K\r',
    b'\x1b[22Cexit\r',
    b'\x1b[26C\r\n',
    b'\x1b[30m\x1b(B\x1b[m\x1b]0;exit ~/w\x07\x1b[30m\x1b(B\x1b[m\r',
    b'\x1b[30m\x1b(B\x1b[m\n',
    b'Script done on 2026-12-07 13:39:08+00:00 [COMMAND_EXIT_CODE="127"]\n',
])


def test_the_fish_prompts_user_is_the_commands(tmp_path: Path) -> None:
    path = tmp_path / "gpu12.typescript"
    path.write_bytes(FISH_ROOT)
    a = analyze_path(path)
    assert [(c.host, c.user, c.exit_code, c.command) for c in a.commands[1:]] == [
        ("gpu12", "root", None, "cd ~/w"),
        ("gpu12", "root", 3, "python3 -c \"import sys; print('loading draft'); sys.exit(3)\""),
        ("gpu12", "root", 127, "nvidia-smi -L"),
        ("gpu12", "root", None, "exit"),
    ]


def test_distill_names_the_user_the_fish_prompt_showed(tmp_path: Path) -> None:
    path = tmp_path / "gpu12.typescript"
    path.write_bytes(FISH_ROOT)
    out = tmp_path / "pb.yaml"
    result = run_cli("distill", str(path), "-o", str(out))
    assert result.code == 0, result.stderr
    assert "--host root@gpu12." in " ".join(yaml.safe_load(out.read_text())["description"].split())


def test_the_walters_prompts_user_is_the_commands(tmp_path: Path) -> None:
    path = tmp_path / "walters.log"
    path.write_text("me@gpu01:~/sglang> nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n", encoding="utf-8")
    assert [(c.host, c.user, c.command) for c in analyze_path(path).commands] == [("gpu01", "me", "nvidia-smi -L")]
