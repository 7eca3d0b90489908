"""postmortem: a relaunch is told by the speculative flags it changed, not all of them.

The agent ran EAGLE-3 with ``--speculative-num-steps 8 --speculative-eagle-topk 4
--speculative-num-draft-tokens 16``, measured 60 tok/s, relaunched with ``--speculative-num-steps
3`` and measured 96.8. Resolution and "What went well" said the rise came "after relaunching the
server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3
--speculative-num-steps 3 --speculative-eagle-topk 4 --speculative-num-draft-tokens 16`": the
reader could not tell which of the five was the fix. Where the agent launched on that host with
speculative flags before, the relaunch is now told by the flags it changed, with what they were;
a first speculative launch (after the baseline's plain one) keeps the whole set.
"""

from __future__ import annotations

from datetime import datetime, timezone

from spec_debug.session import analyze_path
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer, _bench

LAUNCH = ("ssh gpu01 'nohup python -m sglang.launch_server --model-path /models/llama --speculative-algorithm EAGLE3 "
          "--speculative-draft-model-path /models/e3 --speculative-num-steps {steps} --speculative-eagle-topk 4 "
          "{tokens}--port 30000 > /tmp/s.log 2>&1 &'")
BENCH = "ssh gpu01 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"


def _view(tmp_path, first: str, second: str):
    w = _Writer("55550000-0000-4000-8000-0000000000f1", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 is slow on gpu01.")
    w.bash(first, "", text="Launching the server.")
    w.bash(BENCH, _bench(60.0, 1.4), text="Benchmark.")
    relaunch = w.bash(second, "", text="Relaunching.")[0]
    risen = w.bash(BENCH, _bench(96.8, 2.9), text="Benchmark.")[1]
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    return postmortem_view(analyze_path(path)), relaunch, risen


def test_a_relaunch_is_told_by_the_flag_it_changed(tmp_path):
    tokens = "--speculative-num-draft-tokens 16 "
    view, relaunch, risen = _view(tmp_path, LAUNCH.format(steps=8, tokens=tokens), LAUNCH.format(steps=3, tokens=tokens))
    assert view["resolution"] == [
        f"Throughput rose from 60 to 96.8 tok/s on gpu01 [msg {risen}] after relaunching the server with "
        f"`--speculative-num-steps 3` (was `--speculative-num-steps 8`) [msg {relaunch}]."]
    assert view["went_well"][-1].endswith(
        "after relaunching the server with `--speculative-num-steps 3` (was `--speculative-num-steps 8`) "
        f"[msg {relaunch}].")


def test_a_flag_added_and_one_dropped_are_both_told(tmp_path):
    view, relaunch, _ = _view(tmp_path, LAUNCH.format(steps=3, tokens="--speculative-num-draft-tokens 16 "),
                              LAUNCH.format(steps=3, tokens="--speculative-attention-mode decode "))
    assert view["resolution"][0].endswith(
        "after relaunching the server with `--speculative-attention-mode decode`, without "
        f"`--speculative-num-draft-tokens 16` [msg {relaunch}].")


def test_a_first_speculative_launch_after_a_plain_one_keeps_its_flags(tmp_path):
    plain = ("ssh gpu01 'nohup python -m sglang.launch_server --model-path /models/llama --port 30000 "
             "> /tmp/s.log 2>&1 &'")
    view, relaunch, _ = _view(tmp_path, plain, LAUNCH.format(steps=3, tokens=""))
    assert view["resolution"][0].endswith(
        "after relaunching the server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path /models/e3 "
        f"--speculative-num-steps 3 --speculative-eagle-topk 4` [msg {relaunch}].")


def test_a_restart_with_the_same_flags_says_so(tmp_path):
    # a restart to load a patch: its flags, listed whole, read as the change
    w = _Writer("55550000-0000-4000-8000-0000000000f2", None, datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc))
    w.prompt("EAGLE-3 is slow on gpu01.")
    launch = LAUNCH.format(steps=3, tokens="")
    w.bash(launch, "", text="Launching the server.")
    w.bash(BENCH, _bench(60.0, 1.4), text="Benchmark.")
    patch = w.bash("ssh gpu01 'cd /root/sglang && git apply /root/patches/eagle3_embed_capture.patch'", "")[0]
    relaunch = w.bash(launch, "", text="Restarting to load the patch.")[0]
    risen = w.bash(BENCH, _bench(96.8, 2.9), text="Benchmark.")[1]
    path = tmp_path / f"{w.session}.jsonl"
    path.write_text("\n".join(w.lines) + "\n", encoding="utf-8")
    assert postmortem_view(analyze_path(path))["resolution"] == [
        f"Throughput rose from 60 to 96.8 tok/s on gpu01 [msg {risen}] after `cd /root/sglang && git apply "
        f"/root/patches/eagle3_embed_capture.patch` [msg {patch}], restarting the server (the same speculative "
        f"flags) [msg {relaunch}]."]
