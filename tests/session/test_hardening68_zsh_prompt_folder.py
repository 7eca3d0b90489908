"""zsh's ``%n@%m %~ %#`` prompt (``me@gpu01 ~/sglang % cmd``; macOS's default ``%n@%m %1~ %#``
where it shows ``~``): the commands of a text log had the host but no working folder nor user,
while bash's ``me@gpu01:~/sglang$`` gave both. ``%~`` is the whole path, the home as ``~``
(zshmisc(1), PROMPT SEQUENCES); ``%1~``'s trailing part alone (``me@laptop sglang %``) is no
folder to go back to, as for ``[root@gpu-3 work]#``."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path


def _commands(tmp_path: Path, prompt: str) -> list[tuple]:
    path = tmp_path / "term.log"
    path.write_text(f"{prompt} python3 -m sglang.check_env\nsglang: 0.4.6\n{prompt} ls\nlaunch.sh\n{prompt} \n")
    doc = analyze_path(path).to_json()
    return [(c["command"], c["host"], c["user"], c["cwd"]) for c in doc["commands"]]


@pytest.mark.parametrize("prompt, user, folder", [
    ("me@gpu01 ~/sglang %", "me", "~/sglang"),
    ("root@gpu01 /opt/sglang #", "root", "/opt/sglang"),
    ("me@gpu01 ~ %", "me", "~"),
    ("me@gpu01 ~/w $", "me", "~/w"),  # Gentoo bash's \u@\h \w \$
])
def test_the_folder_a_zsh_prompt_shows(tmp_path: Path, prompt: str, user: str, folder: str) -> None:
    assert _commands(tmp_path, prompt) == [("python3 -m sglang.check_env", "gpu01", user, folder),
                                           ("ls", "gpu01", user, folder)]


def test_the_trailing_part_alone_is_no_folder(tmp_path: Path) -> None:
    assert _commands(tmp_path, "me@gpu01 sglang %") == [("python3 -m sglang.check_env", "gpu01", "me", None),
                                                        ("ls", "gpu01", "me", None)]
