"""A Codex session on gpu01: EAGLE-3 gave 41.2 tok/s; `systemctl restart sglang-eagle3` failed ("Job
for sglang-eagle3.service failed", an OOM in the journal), then two `sed -i ... && systemctl restart`
edits of the unit brought it up, and the benchmark read 97.5 tok/s. Before: the Resolution (and
"What went well") told the rise "after `systemctl restart sglang-eagle3` [msg 8], `sed -i ...`
[msg 13], `sed -i ...` [msg 15]": the failed restart first among its causes, though the server read
was started by a later line. The same for a typed launch that died of an OOM before the relaunch
that came up. Now a failed relaunch followed by another is no cause; a failed line that also
edited something (`sed -i ... && systemctl restart`) still is one, and so is a failed restart with
no relaunch after it."""

from __future__ import annotations

import json

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import render_postmortem

THREAD = "019b2222-aaaa-7aaa-8aaa-000000000001"
UNIT = "/etc/systemd/system/sglang-eagle3.service"
BENCH = "ssh gpu01 'python3 -m sglang.bench_serving --backend sglang --num-prompts 50'"


class _Rollout:
    def __init__(self):
        self.lines = [self._line("session_meta", {"id": THREAD, "cwd": "/work", "cli_version": "0.80.0",
                                                   "source": "cli"}),
                      self._line("turn_context", {"model": "gpt-5-codex", "cwd": "/work"})]

    def _line(self, kind: str, payload: dict) -> dict:
        return {"timestamp": f"2026-03-02T10:{len(getattr(self, 'lines', [])):02d}:00.000Z", "type": kind,
                "payload": payload}

    def user(self, text: str) -> None:
        self.lines.append(self._line("response_item", {"type": "message", "role": "user",
                                                       "content": [{"type": "input_text", "text": text}]}))

    def run(self, cmd: str, output: str, code: int) -> None:
        call = f"call_{len(self.lines)}"
        self.lines.append(self._line("response_item", {"type": "function_call", "name": "exec_command",
                                                       "call_id": call, "arguments": json.dumps({"cmd": cmd})}))
        self.lines.append(self._line("response_item", {"type": "function_call_output", "call_id": call,
                                                       "output": f"Process exited with code {code}\nOutput:\n{output}"}))

    def write(self, folder):
        path = folder / f"rollout-2026-03-02T10-00-00-{THREAD}.jsonl"
        path.write_text("".join(json.dumps(x) + "\n" for x in self.lines))
        return path


def _resolution(path) -> list[str]:
    md = render_postmortem(analyze_path(path), "md")
    section = md.split("## Resolution\n", 1)[1].split("\n## ", 1)[0]
    return [line for line in section.splitlines() if line.startswith("- ")]


def _session(tmp_path, failed: str, failed_output: str, fix: list[str]):
    r = _Rollout()
    r.user("EAGLE-3 on gpu01 gives 41 tok/s, plain decoding gave 60. Find out why.")
    r.run(BENCH, "Output token throughput (tok/s): 41.2\nAccept length: 1.31", 0)
    r.run(failed, failed_output, 1)
    r.run("ssh gpu01 'journalctl -u sglang-eagle3 -n 30'",
          "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", 0)
    for cmd in fix:
        r.run(cmd, "", 0)
    r.run(BENCH, "Output token throughput (tok/s): 97.5\nAccept length: 3.4", 0)
    return r.write(tmp_path)


SED_MEM = (f"ssh gpu01 \"sed -i 's/--mem-fraction-static 0.9/--mem-fraction-static 0.8/' {UNIT} "
           "&& systemctl daemon-reload && systemctl restart sglang-eagle3\"")
RESTART_FAILED = "Job for sglang-eagle3.service failed because the control process exited with error code."


def test_a_failed_restart_before_the_restart_that_came_up_is_no_cause(tmp_path):
    path = _session(tmp_path, "ssh gpu01 'systemctl restart sglang-eagle3'", RESTART_FAILED, [SED_MEM])
    assert _resolution(path) == [
        "- Throughput rose from 41.2 to 97.5 tok/s on gpu01 [[msg 12]](#msg-12) after `sed -i "
        f"'s/--mem-fraction-static 0.9/--mem-fraction-static 0.8/' {UNIT} && systemctl…` "
        "[[msg 9]](#msg-9). 41.2 tok/s was read at [[msg 4]](#msg-4)."]


def test_a_typed_launch_that_died_before_the_one_that_came_up_is_no_cause(tmp_path):
    launch = "ssh gpu01 'python3 -m sglang.launch_server --model-path /models/Llama-3.1-8B-Instruct " \
             "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3-draft " \
             "--mem-fraction-static {}'"
    path = _session(tmp_path, launch.format("0.9"), "torch.OutOfMemoryError: CUDA out of memory.",
                    [launch.format("0.8").replace("'", "") + " &"])
    assert _resolution(path) == [
        "- Throughput rose from 41.2 to 97.5 tok/s on gpu01 [[msg 12]](#msg-12) after relaunching the server with "
        "`--mem-fraction-static 0.8` (was `--mem-fraction-static 0.9`) [[msg 9]](#msg-9). "
        "41.2 tok/s was read at [[msg 4]](#msg-4)."]


def test_a_failed_restart_that_also_edited_the_unit_stays_a_cause(tmp_path):
    edit_failed = (f"ssh gpu01 \"sed -i 's/--speculative-num-steps 5/--speculative-num-steps 3/' {UNIT} "
                   "&& systemctl restart sglang-eagle3\"")
    path = _session(tmp_path, edit_failed, RESTART_FAILED, [SED_MEM])
    (line,) = _resolution(path)
    assert "[[msg 5]](#msg-5), `sed -i 's/--mem-fraction-static" in line


def test_a_failed_restart_with_no_relaunch_after_it_stays_a_cause(tmp_path):
    path = _session(tmp_path, "ssh gpu01 'systemctl restart sglang-eagle3'", RESTART_FAILED, [])
    (line,) = _resolution(path)
    assert "after `systemctl restart sglang-eagle3` [[msg 5]](#msg-5)." in line
