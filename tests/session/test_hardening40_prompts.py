"""Terminal logs whose prompt shows the host without a user, or spreads over two lines.

Before: ``gpu01$ cmd`` (PS1='\\h\\$ '), ``[gpu01]$ cmd``, ``gpu01:~/sglang$ cmd`` (PS1='\\h:\\w\\$ ',
Alpine's /etc/profile) and Kali's two-line zsh prompt (``┌──(root㉿gpu01)-[~/sglang]`` then
``└─# cmd``) or Parrot's (``┌─[user@parrot]─[~]`` then ``└──╼ $cmd``) gave no command at all: the
whole log was one block of prose, its traceback no command's error."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.formats import text_log
from spec_debug.session.formats.common import Cursor


def _log(tmp_path: Path, text: str, name: str = "session.log") -> Path:
    path = tmp_path / name
    path.write_bytes(text.encode("utf-8"))
    return path


def _commands(path: Path) -> list[tuple[str, str | None, str | None, bool]]:
    return [(c.command, c.host, c.cwd, c.is_error) for c in analyze_path(path).commands]


def test_prompts_that_show_only_the_host(tmp_path: Path) -> None:
    path = _log(tmp_path, "gpu01$ nvidia-smi -L\n"
                          "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f1c)\n"
                          "[gpu02]$ cat README.md\n"
                          "C# bindings: see https://docs.sglang.ai/#  install\n"
                          "   gpu03$ is only an example in the text\n"
                          "gpu01:~/sglang$ python -m sglang.launch_server --model-path /models/llama\n"
                          "Traceback (most recent call last):\n"
                          '  File "/sgl/launch_server.py", line 9, in <module>\n'
                          "RuntimeError: CUDA error: invalid device ordinal\n"
                          "7c1d2e3f4a5b:/# ls /models\n"
                          "llama\n")
    a = analyze_path(path)
    assert [(c.command, c.host, c.cwd, c.is_error) for c in a.commands] == [
        ("nvidia-smi -L", "gpu01", None, False),
        ("cat README.md", "gpu02", None, False),
        ("python -m sglang.launch_server --model-path /models/llama", "gpu01", "~/sglang", True),
        ("ls /models", "7c1d2e3f4a5b", "/", False),
    ]
    (err,) = a.errors
    assert (err.host, err.command_seq) == ("gpu01", a.commands[2].seq)


def test_kali_and_parrot_two_line_prompts(tmp_path: Path) -> None:
    # as `script` recorded it: the prompt's colours and Windows line ends
    path = _log(tmp_path, "\x1b[32m┌──(\x1b[1;34mroot㉿gpu01\x1b[32m)-[\x1b[0m/data/eagle3\x1b[32m]\x1b[0m\r\n"
                          "\x1b[32m└─\x1b[1;31m#\x1b[0m nvidia-smi -L\r\n"
                          "GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-5f1c)\r\n"
                          "\r\n"
                          "┌──(venv)─(kali㉿gpu01)-[~/…/sglang/python/sglang/srt]\r\n"
                          "└─$ ./run_eval.sh --n 100\r\n"
                          "zsh: no such file or directory: ./run_eval.sh\r\n"
                          "┌─[✗]─[user@parrot]─[~/sglang]\r\n"
                          "└──╼ $python3 -m sglang.check_env\r\n"
                          "Python: 3.11.7\r\n")
    assert _commands(path) == [
        ("nvidia-smi -L", "gpu01", "/data/eagle3", False),
        ("./run_eval.sh --n 100", "gpu01", None, True),  # a shortened path is no folder to go back to
        ("python3 -m sglang.check_env", "parrot", "~/sglang", False),
    ]
    commands = analyze_path(path).commands
    assert [(c.user, c.line) for c in commands] == [("root", 2), ("kali", 6), ("user", 9)]


def test_a_first_line_with_no_command_after_it_stays_in_the_output() -> None:
    lines = ["┌──(root㉿gpu01)-[~]", "└─# cat banner.txt", "┌──(demo)-[box]", "welcome", "┌──(root㉿gpu01)-[~]"]
    events = list(text_log.read_lines(((n, line, None) for n, line in enumerate(lines, 1)), Cursor("s", "main", "s.log")))
    assert [(ev.kind, ev.command, ev.host) for ev in events if ev.kind == "tool_call"] == [
        ("tool_call", "cat banner.txt", "gpu01")]
    # the banner's own box line and the last prompt, with no command typed after it, are output
    assert [ev.text for ev in events if ev.kind == "tool_result"] == [
        "┌──(demo)-[box]\nwelcome\n┌──(root㉿gpu01)-[~]"]
