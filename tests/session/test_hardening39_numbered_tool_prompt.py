"""analyze: a ``[msg N] tool: $ cmd`` line of a numbered transcript is the command that tool
message ran, with its output on the lines below.

Before: the command was read only when the prompt line came after the ``[msg N] tool:`` line, so a
transcript that writes it on the same line had no command at all: no host, the readings of the
server log on no host, and the launch finding on none.
"""

from __future__ import annotations

from spec_debug.session import analyze_path

LAUNCH = ("python3 -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/eagle3 --speculative-num-steps 1 --speculative-eagle-topk 1 "
          "--speculative-num-draft-tokens 2 --port 30000")
DECODE = ("[2026-03-01 10:00:30 TP0] Decode batch, #running-req: 8, #token: 4096, token usage: 0.05, accept len: 1.71, "
          "accept rate: 0.71, cuda graph: True, gen throughput (token/s): 512.40, #queue-req: 0")


def _transcript(tmp_path, same_line: bool):
    sep = " " if same_line else "\n"
    text = (f"[msg 0] user: EAGLE-3 made serving slower on gpu01. Find out why.\n"
            f"[msg 1] assistant: Let me look at the server's flags.\n"
            f"[msg 2] tool:{sep}$ ssh gpu01 'ps aux | grep launch_server'\n"
            f"root  4242  99.0  3.1 {LAUNCH}\n"
            f"[msg 3] tool:{sep}root@gpu02:~# tail -n 1 /var/log/sglang.log\n"
            f"{DECODE}\n"
            f"[msg 4] tool: up 3 days, load average: 0.10\n"
            f"[msg 5] assistant: One draft step caps the accept length at 2.\n")
    path = tmp_path / ("same.txt" if same_line else "next.txt")
    path.write_text(text, encoding="utf-8")
    return analyze_path(path)


def test_the_command_on_the_tool_line_is_read_as_on_its_own_line(tmp_path):
    same, next_line = _transcript(tmp_path, True), _transcript(tmp_path, False)
    assert [(c.seq, c.host, c.command) for c in same.commands] == [
        (2, "gpu01", "ssh gpu01 'ps aux | grep launch_server'"),
        (3, "gpu02", "tail -n 1 /var/log/sglang.log")]
    assert [(c.seq, c.host, c.command) for c in same.commands] == \
        [(c.seq, c.host, c.command) for c in next_line.commands]
    assert [(m.name, m.value, m.host) for m in same.metrics] == [
        ("throughput", 512.4, "gpu02"), ("accept_length", 1.71, "gpu02"), ("accept_rate", 0.71, "gpu02")]
    assert [(f.code, f.host) for f in same.findings] == [("SD101", "gpu01")]


def test_a_tool_line_of_plain_output_is_no_command(tmp_path):
    same = _transcript(tmp_path, True)
    assert 4 not in [c.seq for c in same.commands]
