"""An engineer opens ``python3`` (or IPython) on the GPU host to poke at the drafter's
checkpoint, and a statement typed at the prompt raises. The traceback is a real error of the
session, but the interpreter went on to its next prompt: the ``python3`` line was no failed
call (it counted one, and a few such statements read as a loop of failing runs). A script that
raised, or an interpreter whose log ends in its traceback, stays failed."""

from __future__ import annotations

from pathlib import Path

import pytest

from spec_debug.session import analyze_path
from spec_debug.session.shell import opens_repl

BANNER = ("Python 3.12.3 (main, Nov  6 2025, 13:44:16) [GCC 13.2.0] on linux\n"
          'Type "help", "copyright", "credits" or "license" for more information.\n')
NAME_ERROR = ("Traceback (most recent call last):\n"
              '  File "<stdin>", line 1, in <module>\n'
              "NameError: name 'json' is not defined\n")


def _analysed(tmp_path: Path, text: str) -> dict:
    path = tmp_path / "terminal.log"
    path.write_text(text)
    return analyze_path(path).to_json()


def test_a_statement_that_raised_at_the_python_prompt_is_an_error_not_a_failed_call(tmp_path: Path) -> None:
    doc = _analysed(tmp_path, "root@gpu01:~# python3\n" + BANNER
                    + ">>> from safetensors.torch import load_file\n"
                    + '>>> sd = load_file("/models/draft/model.safetensors")\n'
                    + '>>> cfg = json.load(open("/models/draft/config.json"))\n' + NAME_ERROR
                    + '>>> import json; json.load(open("/models/draft/config.json"))["draft_vocab_size"]\n'
                    + "32000\n>>> exit()\n"
                    + "root@gpu01:~# nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n")
    assert [(c["command"], c["host"], c["exit_code"], c["is_error"]) for c in doc["commands"]] == [
        ("python3", "gpu01", None, False), ("nvidia-smi -L", "gpu01", None, False)]
    assert [(e["exception"], e["message"], e["host"], e["command_seq"]) for e in doc["errors"]] == [
        ("NameError", "name 'json' is not defined", "gpu01", doc["commands"][0]["seq"])]
    (main,) = doc["agents"]
    assert (main["failed_calls"], main["errors"]) == (0, 1)


def test_ipython_prompts_count_as_the_interpreter_going_on(tmp_path: Path) -> None:
    doc = _analysed(tmp_path, "(ml-env) ubuntu@gpu02:~$ ipython\n"
                    "Python 3.12.3 | packaged by conda-forge | (main) [GCC 13.3.0]\nIPython 9.1.0 -- An enhanced Interactive Python.\n\n"
                    "In [1]: import torch\n\n"
                    "In [2]: torch.cat([embed, h3], dim=-1).shape\n"
                    "---------------------------------------------------------------------------\n"
                    "NameError                                 Traceback (most recent call last)\n"
                    "Cell In[2], line 1\n----> 1 torch.cat([embed, h3], dim=-1).shape\n\n"
                    "NameError: name 'embed' is not defined\n\n"
                    "In [3]: exit\n"
                    "(ml-env) ubuntu@gpu02:~$ ls /models\ndraft  target\n")
    assert [(c["command"], c["host"], c["is_error"]) for c in doc["commands"]] == [
        ("ipython", "gpu02", False), ("ls /models", "gpu02", False)]
    assert [e["exception"] for e in doc["errors"]] == ["NameError"]


def test_a_script_that_raised_and_an_interpreter_that_ended_in_its_traceback_stay_failed(tmp_path: Path) -> None:
    doc = _analysed(tmp_path, "root@gpu01:~# python3 test_drafter_standalone.py\n"
                    "Traceback (most recent call last):\n"
                    '  File "/root/test_drafter_standalone.py", line 41, in <module>\n'
                    "    hidden = torch.cat([embed, h3, h31], dim=-1)\n"
                    "RuntimeError: Sizes of tensors must match except in dimension 2\n"
                    "root@gpu01:~# python3\n" + BANNER
                    + ">>> import torch; torch.zeros(1 << 40, device='cuda')\n"
                    + "Traceback (most recent call last):\n"
                    + '  File "<stdin>", line 1, in <module>\n'
                    + "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 4096.00 GiB.\n"
                    + "root@gpu01:~# echo done\ndone\n")
    assert [(c["command"], c["is_error"]) for c in doc["commands"]] == [
        ("python3 test_drafter_standalone.py", True), ("python3", True), ("echo done", False)]


@pytest.mark.parametrize(("command", "repl"), [
    ("python3", True), ("python", True), ("python3.12 -q", True), ("~/ml-env/bin/python -u", True),
    ("ipython", True), ("ipython3", True), ("cd /models && python3", True), ("sudo -u ml python3", True),
    ("python3 -i check_draft.py", True),
    ("python3 check_draft.py", False), ("python3 -c 'import torch'", False), ("python3 -m pytest", False),
    ("python3 - <<EOF", False), ("python3 | tee out.log", False), ("pythonista", False), ("ls", False),
])
def test_which_lines_open_a_python_prompt(command: str, repl: bool) -> None:
    assert opens_repl(command) is repl
