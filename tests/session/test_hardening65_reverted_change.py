"""A change tried, benchmarked and rolled back is no fix. The postmortem named the reading of a
reverted change as the throughput "after" (a config sed measured a third slower, then undone:
"Throughput went from 60.5 tok/s to 40.2 tok/s"), told the sed nowhere, and told a rise whose
relaunch flags were put back later as the Resolution and as "the change was measured again"."""

from __future__ import annotations

import json
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view, render_postmortem

_BENCH = ("============ Serving Benchmark Result ============\nSuccessful requests:                     100\n"
          "Output token throughput (tok/s):         {}\n==================================================")
_BENCH_CMD = "ssh ubuntu@gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 100'"
_SED = "ssh ubuntu@gpu01 'sudo sed -i \"s/num_steps: {}/num_steps: {}/\" /etc/sglang/spec.yaml && sudo systemctl restart sglang'"
_LAUNCH = ("ssh ubuntu@gpu01 'nohup python -m sglang.launch_server --model-path meta-llama/Llama-3.1-8B-Instruct "
           "--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/eagle3 {} > /tmp/s.log 2>&1 &'")
_OLD_FLAGS = "--speculative-num-steps 3 --speculative-eagle-topk 1 --speculative-num-draft-tokens 4"
_NEW_FLAGS = "--speculative-num-steps 5 --speculative-eagle-topk 1 --speculative-num-draft-tokens 6"


class _Session:
    def __init__(self) -> None:
        self.lines: list[dict] = []

    def add(self, kind: str, content: list | str) -> None:
        n = len(self.lines) + 1
        self.lines.append({"type": kind, "uuid": f"u{n}", "parentUuid": f"u{n - 1}" if n > 1 else None,
                           "isSidechain": False, "sessionId": "s", "timestamp": f"2026-11-20T10:{n:02d}:00.000Z",
                           "message": {"role": "user" if kind == "user" else "assistant", "content": content}})

    def bash(self, command: str, output: str = "") -> None:
        tid = f"toolu_{len(self.lines)}"
        self.add("assistant", [{"type": "tool_use", "id": tid, "name": "Bash", "input": {"command": command}}])
        self.add("user", [{"type": "tool_result", "tool_use_id": tid, "content": output, "is_error": False}])

    def bench(self, value: str) -> None:
        self.bash(_BENCH_CMD, _BENCH.format(value))

    def write(self, path: Path) -> Path:
        path.write_text("".join(json.dumps(line) + "\n" for line in self.lines), encoding="utf-8")
        return path


def _sed_tried(path: Path, undo: str | None, after: str | None = None) -> Path:
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    s.bench("60.5")                       # msg 2
    s.bash(_SED.format(3, 8))             # msg 3
    s.bench("40.2")                       # msg 6
    s.add("assistant", [{"type": "text", "text": "Worse: reverting that change."}])
    if undo:
        s.bash(undo)                      # msg 8
    if after:
        s.bench(after)                    # msg 11
    return s.write(path)


_UNDOS = {
    "sed back": _SED.format(8, 3),
    "git checkout": "ssh ubuntu@gpu01 'cd /etc/sglang && sudo git checkout -- spec.yaml && sudo systemctl restart sglang'",
    "backup copied back": "ssh ubuntu@gpu01 'sudo cp /etc/sglang/spec.yaml.bak /etc/sglang/spec.yaml && sudo systemctl restart sglang'",
    "work tree reset": "ssh ubuntu@gpu01 'sudo git -C /etc/sglang checkout . && sudo systemctl restart sglang'",
}


def _tput(view: dict) -> str:
    return next(s for s in view["summary"] if s.startswith("Throughput"))


def test_reverted_reading_is_marked_as_such_in_summary_and_impact(tmp_path: Path) -> None:
    for how, undo in _UNDOS.items():
        view = postmortem_view(analyze_path(_sed_tried(tmp_path / "s.jsonl", undo)))
        assert _tput(view) == (
            "Throughput went from 60.5 tok/s [msg 2] to 40.2 tok/s [msg 6]; that reading measured "
            "`sudo sed -i \"s/num_steps: 3/num_steps: 8/\" /etc/sglang/spec.yaml && sudo systemctl restart sglang` "
            "[msg 3], which was reverted at [msg 8], and nothing was measured after the revert."), how
        row = view["impact"]["throughput"]
        assert (row["after"], row["reverted_seq"]) == (40.2, 8), how
        assert view["went_wrong"] == [
            "Throughput fell from 60.5 to 40.2 tok/s on gpu01 [msg 6] after `sudo sed -i \"s/num_steps: 3/num_steps: 8/\" "
            "/etc/sglang/spec.yaml && sudo systemctl restart sglang` [msg 3], which was reverted at [msg 8]."], how


def test_impact_cell_links_the_revert(tmp_path: Path) -> None:
    analysis = analyze_path(_sed_tried(tmp_path / "s.jsonl", _UNDOS["sed back"]))
    md = render_postmortem(analysis, "md")
    assert ("| throughput | 60.5 tok/s [[msg 2]](#msg-2) | 40.2 tok/s [[msg 6]](#msg-6) "
            "(its change reverted at [[msg 8]](#msg-8)) | 2 | gpu01 |") in md
    html = render_postmortem(analysis, "html")
    assert "(its change reverted at <a href=\"#msg-8\">[msg 8]</a>)" in html


def test_measured_again_after_the_revert_keeps_the_last_reading(tmp_path: Path) -> None:
    view = postmortem_view(analyze_path(_sed_tried(tmp_path / "s.jsonl", _UNDOS["sed back"], after="61.2")))
    assert _tput(view) == "Throughput went from 60.5 tok/s [msg 2] to 61.2 tok/s [msg 11]."
    assert view["impact"]["throughput"]["reverted_seq"] is None
    assert view["went_wrong"][0].startswith("Throughput fell from 60.5 to 40.2 tok/s on gpu01 [msg 6] after ")


def test_a_change_kept_is_not_told_as_reverted(tmp_path: Path) -> None:
    # another file put back by git, another checkout reset, a sed to a third value: not this change's revert
    other = "ssh ubuntu@gpu01 'cd /etc/sglang && sudo git checkout -- other.yaml'"
    elsewhere = "ssh ubuntu@gpu01 'cd ~/sglang && git reset --hard origin/main'"
    for undo in (None, other, elsewhere, _SED.format(8, 4)):
        view = postmortem_view(analyze_path(_sed_tried(tmp_path / "s.jsonl", undo)))
        assert _tput(view) == "Throughput went from 60.5 tok/s [msg 2] to 40.2 tok/s [msg 6].", undo
        assert view["impact"]["throughput"]["reverted_seq"] is None
        assert not any(w.startswith("Throughput fell") for w in view["went_wrong"])


def _relaunched(path: Path, back: str) -> dict:
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 1
    s.bench("60.5")                       # msg 4
    s.bash(_LAUNCH.format(_NEW_FLAGS))    # msg 5
    s.bench("120.3")                      # msg 8
    s.add("assistant", [{"type": "text", "text": "Faster, but the outputs differ from the target: going back."}])
    s.bash(_LAUNCH.format(back))          # msg 10
    s.bench("61")                         # msg 13
    return postmortem_view(analyze_path(s.write(path)))


def test_rise_whose_flags_were_put_back_is_no_resolution(tmp_path: Path) -> None:
    view = _relaunched(tmp_path / "s.jsonl", _OLD_FLAGS)
    assert view["resolution"] == [
        "Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] after relaunching the server with "
        "`--speculative-num-steps 5 --speculative-num-draft-tokens 6` (was `--speculative-num-steps 3 "
        "--speculative-num-draft-tokens 4`) [msg 5]; the change at [msg 5] was reverted at [msg 10]."]
    assert not any(w.startswith("The change was measured again") for w in view["went_well"])


def test_rise_kept_after_another_relaunch_is_still_the_resolution(tmp_path: Path) -> None:
    third = "--speculative-num-steps 4 --speculative-eagle-topk 1 --speculative-num-draft-tokens 5"
    view = _relaunched(tmp_path / "s.jsonl", third)
    assert view["resolution"] == [
        "Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 8] after relaunching the server with "
        "`--speculative-num-steps 5 --speculative-num-draft-tokens 6` (was `--speculative-num-steps 3 "
        "--speculative-num-draft-tokens 4`) [msg 5]."]
    assert any(w.startswith("The change was measured again") for w in view["went_well"])


def test_a_debug_edit_taken_out_beside_the_fix_keeps_the_fix(tmp_path: Path) -> None:
    # the rise followed two edits: the fix, kept, and a debug line, taken out again afterwards
    debug = "ssh ubuntu@gpu01 'sudo sed -i \"s/log_level: info/log_level: debug/\" /etc/sglang/logging.yaml'"
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    s.bench("60.5")                       # msg 2
    s.bash(_SED.format(8, 3))             # msg 3
    s.bash(debug)                         # msg 5
    s.bench("120.3")                      # msg 8
    s.bash("ssh ubuntu@gpu01 'sudo sed -i \"s/log_level: debug/log_level: info/\" /etc/sglang/logging.yaml'")  # msg 9
    view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
    assert view["resolution"][0].endswith("; the change at [msg 5] was undone at [msg 9], the others kept.")
    assert any(w.startswith("The change was measured again") for w in view["went_well"])


def test_one_reading_of_a_launch_and_a_reverted_edit(tmp_path: Path) -> None:
    # the server started, the config changed, one benchmark, the change undone: the one reading is stale
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow, please fix it.")
    s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 1
    s.bash(_SED.format(3, 8))             # msg 3
    s.bench("40.2")                       # msg 6
    s.bash(_SED.format(8, 3))             # msg 7
    view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
    assert view["impact"]["throughput"]["reverted_seq"] == 7
    assert _tput(view).startswith("Throughput was measured once: 40.2 tok/s [msg 6]; that reading measured `sudo sed")


def test_below_baseline_advice_stays_when_the_fix_was_rolled_back(tmp_path: Path) -> None:
    # SD501's "until fixed, serve without speculation" was dropped as done: the last reading was
    # above the baseline, but measured flags the session then put back
    s = _Session()
    s.add("user", "EAGLE-3 on gpu01 is slow; without speculation it was 90 tok/s.")
    s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 1
    s.bench("60.5")                       # msg 4
    s.bash(_LAUNCH.format(_NEW_FLAGS))    # msg 5
    s.bench("120.3")                      # msg 8
    s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 9
    view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
    assert [i["source"] for i in view["action_items"]][:1] == ["SD501 [msg 4]"]
    s.bench("61.1")                       # measured again after the revert: still below
    view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
    assert [i["source"] for i in view["action_items"]][:1] == ["SD501 [msg 4]"]


_ROLLBACKS = ["cd /opt/serving && git checkout HEAD~1 -- configs/eagle3.yaml", "cd /opt/serving && git revert --no-edit HEAD",
              "cp /opt/serving/configs/eagle3.yaml.bak /opt/serving/configs/eagle3.yaml",
              "kubectl -n ml rollout undo deploy/sglang", "helm rollback sglang 3"]


def test_a_rollback_that_raised_throughput_is_the_resolution(tmp_path: Path) -> None:
    # rolling back the morning's rollout is a change: the Resolution said "No change in the session
    # was followed by a rise in measured throughput" (a rollback is a command of kind "other")
    for undo in _ROLLBACKS:
        s = _Session()
        s.add("user", "Since this morning's rollout EAGLE-3 on gpu01 is slow.")
        s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 1
        s.bench("60.5")                       # msg 4
        s.bash(f"ssh ubuntu@gpu01 '{undo}'")  # msg 5
        s.bash("ssh ubuntu@gpu01 'sudo systemctl restart sglang'")
        s.bench("120.3")                      # msg 10
        view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
        assert view["resolution"] == [f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 10] after `{undo}` [msg 5], "
                                      "`sudo systemctl restart sglang` [msg 7]."]


def test_reads_of_the_history_are_no_rollback(tmp_path: Path) -> None:
    for read in ("cd /opt/serving && git log -3 --oneline", "kubectl rollout status deploy/sglang", "git stash list",
                 "cp /opt/serving/configs/eagle3.yaml /tmp/eagle3.yaml.bak"):
        s = _Session()
        s.add("user", "Since this morning's rollout EAGLE-3 on gpu01 is slow.")
        s.bash(_LAUNCH.format(_OLD_FLAGS))
        s.bench("60.5")
        s.bash(f"ssh ubuntu@gpu01 '{read}'")
        s.bench("120.3")
        view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
        assert view["resolution"] == [], read


def test_an_upgrade_or_a_config_written_by_the_shell_is_a_change(tmp_path: Path) -> None:
    # the relaunch alone was credited: "rose ... after restarting the server (the same speculative flags)"
    for change in ("pip install -U \"sglang[all]==0.4.6\"",
                   "echo \"speculative_num_steps: 3\" | sudo tee -a /etc/sglang/spec.yaml > /dev/null",
                   "echo \"speculative_num_steps: 3\" >> /etc/sglang/spec.yaml"):
        s = _Session()
        s.add("user", "EAGLE-3 on gpu01 is slow.")
        s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 1
        s.bench("60.5")                       # msg 4
        s.bash(f"ssh ubuntu@gpu01 '{change}'")  # msg 5
        s.bash(_LAUNCH.format(_OLD_FLAGS))    # msg 7
        s.bench("120.3")                      # msg 10
        view = postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))
        said = view["resolution"][0]
        assert said.startswith(f"Throughput rose from 60.5 to 120.3 tok/s on gpu01 [msg 10] after `{change}` [msg 5]"), said


def test_output_written_to_a_file_is_no_change(tmp_path: Path) -> None:
    for read in ("nvidia-smi -q > /tmp/gpu.yaml", "cat /var/log/sglang/server.log > notes.txt"):
        s = _Session()
        s.add("user", "EAGLE-3 on gpu01 is slow.")
        s.bash(_LAUNCH.format(_OLD_FLAGS))
        s.bench("60.5")
        s.bash(f"ssh ubuntu@gpu01 '{read}'")
        s.bench("120.3")
        assert postmortem_view(analyze_path(s.write(tmp_path / "s.jsonl")))["resolution"] == [], read
