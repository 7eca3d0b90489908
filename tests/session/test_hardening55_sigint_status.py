"""A command whose status the terminal log shows as 130 (128 + SIGINT) was stopped with Ctrl-C:
an interrupt, not a failed call. fish redraws its prompt over the line the tty echoed ``^C`` on,
so only the ``[SIGINT]`` its next prompt shows tells (fish 3.6.0, fish_prompt.fish); zsh's
``%(?..[%?] )`` prompt shows ``[130]``. Before: ``tail -f`` and a Python program so stopped were
failed calls, with a "SIGINT" and a ``KeyboardInterrupt`` error."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

from tests.session.test_hardening55_fish_prompt_status import AFTER_FAILURES


def test_a_fish_prompt_that_shows_sigint_says_the_command_was_stopped(tmp_path: Path) -> None:
    path = tmp_path / "typescript"
    path.write_bytes(AFTER_FAILURES)
    doc = analyze_path(path).to_json()
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"]}
    assert got["tail -f server.log"] == got["python3 -c 'import time; time.sleep(30)'"] == (130, False)
    assert got["ls /nope"] == (2, True)
    assert doc["stats"]["interrupts"] == 2
    assert [e["message"] for e in doc["errors"]] == ["ls: cannot access '/nope': No such file or directory"]


def test_a_zsh_status_prompt_of_130_after_a_server_it_stopped(tmp_path: Path) -> None:
    path = tmp_path / "session.log"
    path.write_text("me@gpu01:~$ python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct\n"
                    "[2025-08-18 10:02:31] The server is fired up and ready to roll!\n"
                    "[130] me@gpu01:~$ nvidia-smi -L\nGPU 0: NVIDIA H100 80GB HBM3\n"
                    "me@gpu01:~$ python3 bench.py\nRuntimeError: CUDA error: out of memory\n"
                    "[130] me@gpu01:~$ exit\n")
    doc = analyze_path(path).to_json()
    got = {c["command"]: (c["exit_code"], c["is_error"]) for c in doc["commands"]}
    assert got["python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct"] == (130, False)
    # stopped after it failed: the failure stands
    assert got["python3 bench.py"] == (130, True)
    assert doc["stats"]["interrupts"] == 1
    assert [e["kind"] for e in doc["errors"]] == ["cuda_oom"]
