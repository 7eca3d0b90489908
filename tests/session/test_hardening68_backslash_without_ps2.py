"""A launch command typed at a prompt over several lines ending in ``\\``, its next lines shown
without bash's ``> `` (PS2 set empty, or the command pasted into a log from a README with its
indent). Before: the command was its first line with a trailing backslash
(``python3 -m sglang.launch_server --model-path /models/llama \\``) and its flag lines were read
as its output, so the EAGLE-3 flags, the port and the ``&`` that sends it to the background were
lost. Now a flag line after a backslash-newline goes on with the command, as the shell reads it
(bash(1), QUOTING: a backslash-newline is a line continuation)."""

from __future__ import annotations

from pathlib import Path

from spec_debug.session import analyze_path

LOG = """\
(sglang) root@gpu01:~/work# python3 -m sglang.launch_server --model-path /models/llama \\
    --speculative-algorithm EAGLE3 \\
    --speculative-draft-model-path /ckpt/eagle3 --port 30000 &
[1] 12345
(sglang) root@gpu01:~/work# python3 -m sglang.launch_server --model-path /models/llama \\
  --speculative-algorithm EAGLE3 --speculative-num-steps 3
Traceback (most recent call last):
ValueError: speculative_eagle_topk must be set
(sglang) root@gpu01:~/work# ls /ckpt/eagle3 \\
config.json
(sglang) root@gpu01:~/work# """


def test_flag_lines_after_a_backslash_go_on_with_the_command(tmp_path: Path) -> None:
    path = tmp_path / "gpu01.log"
    path.write_text(LOG)
    a = analyze_path(path)
    assert [(c.command, c.host, c.is_error) for c in a.commands] == [
        ("python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3"
         " --speculative-draft-model-path /ckpt/eagle3 --port 30000 &", "gpu01", False),
        ("python3 -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3"
         " --speculative-num-steps 3", "gpu01", True),
        # a line that is no flag is not taken as the rest of the command: the output, as before
        ("ls /ckpt/eagle3 \\", "gpu01", False),
    ]
    [err] = a.errors
    assert (err.message, err.command_seq) == ("speculative_eagle_topk must be set", a.commands[1].seq)
