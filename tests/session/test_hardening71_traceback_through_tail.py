"""A Python program that died through a pipe: `python3 load.py 2>&1 | tail -8` exits with tail's 0
(bash(1), "Pipelines"; recorded: "status=0", the program's own status 1), and its output ends on
the traceback's exception line. In a Claude Code session, whose Bash tool records that 0, the call
was no failure though its error was read; a terminal log, which records no status, already made
it one. Now the traceback that ends the output of a program run through ``| tail`` or ``| tee`` is
the call's failure. A log read back (``tail -8 load.log``, ``docker logs``), a thread's traceback
the process went on from (threading's "Exception in thread ...:", exit 0) and a traceback the
program printed and went on from are not. The outputs are CPython 3.11.7's, recorded."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.test_hardening67_install_folder import _session

DIED = ("Traceback (most recent call last):\n"
        "  File \"/root/spec/load.py\", line 10, in <module>\n"
        "    cfg = load(\"/ckpt/eagle3/config.json\")\n"
        "          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^\n"
        "  File \"/root/spec/load.py\", line 5, in load\n"
        "    with open(path) as f:\n"
        "         ^^^^^^^^^^\n"
        "FileNotFoundError: [Errno 2] No such file or directory: '/ckpt/eagle3/config.json'\n")
CHAINED = ("Traceback (most recent call last):\n"
           "  File \"/root/spec/chained.py\", line 2, in <module>\n"
           "    {}[\"draft_vocab_size\"]\n"
           "    ~~^^^^^^^^^^^^^^^^^^^^\n"
           "KeyError: 'draft_vocab_size'\n\n"
           "The above exception was the direct cause of the following exception:\n\n"
           "Traceback (most recent call last):\n"
           "  File \"/root/spec/chained.py\", line 4, in <module>\n"
           "    raise ValueError(\"config.json has no draft_vocab_size\") from e\n"
           "ValueError: config.json has no draft_vocab_size\n")
THREAD = ("Exception in thread Thread-1 (work):\n"
          "Traceback (most recent call last):\n"
          "  File \"/usr/lib/python3.11/threading.py\", line 1045, in _bootstrap_inner\n"
          "    self.run()\n"
          "  File \"/usr/lib/python3.11/threading.py\", line 982, in run\n"
          "    self._target(*self._args, **self._kwargs)\n"
          "  File \"/root/spec/threaded.py\", line 5, in work\n"
          "    raise RuntimeError(\"prefetch worker lost its file\")\n"
          "RuntimeError: prefetch worker lost its file\n")
WENT_ON = DIED + "falling back to /ckpt/eagle3-old\nloaded 1 draft layer\n"

STEPS = [  # (command, output, failed)
    ("python3 load.py 2>&1 | tail -8", DIED, True),
    ("cd /root/spec && python3 chained.py 2>&1 | tee chained.log", CHAINED, True),
    ("ssh gpu01 'python3 /root/spec/load.py 2>&1 | tail -8'", DIED, True),
    ("python3 threaded.py 2>&1 | tail -9", THREAD, False),
    ("python3 load.py 2>&1 | tail -10", WENT_ON, False),
    ("tail -8 /root/spec/load.log", DIED, False),
    ("cat /root/spec/load.log | tail -8", DIED, False),
    ("docker logs sglang 2>&1 | tail -8", DIED, False),
]


def test_a_program_that_died_through_tail_failed(tmp_path: Path) -> None:
    analysis = analyze_path(_session(tmp_path / "s.jsonl", [(c, out, "/root") for c, out, _ in STEPS]))
    assert [(c.command, c.exit_code, c.is_error) for c in analysis.commands] == [(c, 0, f) for c, _, f in STEPS]
    by_seq = {c.seq: c.command for c in analysis.commands}
    said = {by_seq[e.command_seq]: e.message for e in analysis.errors}
    assert said[STEPS[0][0]] == "[Errno 2] No such file or directory: '/ckpt/eagle3/config.json'"
    assert said[STEPS[1][0]] == "config.json has no draft_vocab_size"


def test_an_echoed_zero_after_it_is_tails(tmp_path: Path) -> None:
    # a terminal log: the traceback made the run a failure; the `echo $?` after it printed tail's 0
    # (recorded: "status=0"), which was read as the run's success
    path = tmp_path / "session.log"
    path.write_text(f"root@gpu01:~/spec# python3 load.py 2>&1 | tail -8\n{DIED}root@gpu01:~/spec# echo $?\n0\n"
                    f"root@gpu01:~/spec# tail -8 load.log\n{DIED}root@gpu01:~/spec# echo $?\n0\nroot@gpu01:~/spec# \n")
    analysis = analyze_path(path)
    assert [(c.command, c.is_error) for c in analysis.commands] == [
        ("python3 load.py 2>&1 | tail -8", True), ("echo $?", False), ("tail -8 load.log", False), ("echo $?", False)]
