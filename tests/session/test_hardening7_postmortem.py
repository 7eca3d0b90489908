"""The postmortem and the distilled playbook read as the team lead reads them after the
incident (../shared/reference/INCIDENT.md): each test retells a moment of an EAGLE-3 debugging
session and checks one claim the output makes about it."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.distill import distill_playbook
from spec_debug.session.postmortem import postmortem_view
from tests.session.incident_story import _Writer

GPU = "10.1.230.174"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
TEST_RUN = f"ssh root@{GPU} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'"
HEALTH = f"ssh root@{GPU} 'curl -sf http://localhost:30000/health'"
# curl's message for exit 7 (curl lib/strerror.c, CURLE_COULDNT_CONNECT), as a health poll prints it
REFUSED = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"


def _crash(kind: str, message: str) -> str:
    # The traceback of [msg 4400] (INCIDENT.md), with the exception line CPython 3.11 prints
    return ("Traceback (most recent call last):\n"
            "  File \"/tmp/test_drafter_standalone.py\", line 291, in <module>\n    load_and_test()\n"
            "  File \"/tmp/test_drafter_standalone.py\", line 79, in load_and_test\n"
            "    q = F.linear(attn_input, w[\"midlayer.self_attn.q_proj.weight\"])\n        ^^^^^^^^^^^^^\n"
            f"{kind}: {message}\n")


NAME_ERROR = _crash("NameError", "name 'attn_input' is not defined")
UNBOUND = _crash("UnboundLocalError",
                 "cannot access local variable 'attn_input' where it is not associated with a value")


def _session() -> _Writer:
    return _Writer("7e1a0000-0000-4000-8000-00000000bb07", None, START)


def _analyze(tmp_path: Path, writer: _Writer):
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000bb07.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _restart_and_crash(m: _Writer) -> tuple[int, int]:
    """The server is restarted with new flags, polled until it answers, then the standalone
    test crashes: the order of INCIDENT.md's segment 31. Returns (first poll, crash result)."""
    m.prompt("EAGLE-3 on 10.1.230.174 is at 54.8 tok/s against a 90 tok/s baseline. Please find out why.")
    first_poll = m.bash(HEALTH, REFUSED, exit_code=7)[0]
    for _ in range(3):
        m.bash(HEALTH, REFUSED, exit_code=7)
    m.bash(HEALTH, "OK")
    _, crash = m.bash(TEST_RUN, UNBOUND, exit_code=1)
    return first_poll, crash


def test_a_retry_loop_that_fails_differently_names_each_error(tmp_path):
    m = _session()
    m.prompt("The standalone drafter test crashes on 10.1.230.174.")
    first = m.bash(TEST_RUN, NAME_ERROR, exit_code=1)[0]
    m.bash(TEST_RUN, UNBOUND, exit_code=1)
    m.bash(TEST_RUN, UNBOUND, exit_code=1)
    analysis = _analyze(tmp_path, m)
    [loop] = analysis.loops
    assert loop.error == "NameError"  # the JSON record keeps the first error, as before
    view = postmortem_view(analysis)
    items = {item["source"]: item["action"] for item in view["action_items"]}
    # before: "it failed 3 times with NameError", though two of the three runs said UnboundLocalError
    assert items[f"loop [msg {first}]"].endswith("it failed 3 times with NameError, UnboundLocalError")
    assert view["went_wrong"][0].endswith("/tmp/test_drafter_standalone.py'` — NameError, UnboundLocalError")


def test_a_health_poll_while_the_server_loads_is_not_the_first_error(tmp_path):
    m = _session()
    first_poll, crash = _restart_and_crash(m)
    view = postmortem_view(_analyze(tmp_path, m))
    # before: "First error: connection: curl: (7) Failed to connect ... Connection refused"
    assert view["detection"][-1] == (
        "First error: UnboundLocalError: cannot access local variable 'attn_input' where it is not associated "
        f"with a value [msg {crash}] (main).")
    wrong = view["went_wrong"]
    assert wrong[0].startswith(f"A poll failed 4 times while waiting [msg {first_poll}]")
    # before: also "4× connection [msg ..]", the same four polls told twice as errors
    assert not any(line.startswith("4× connection") for line in wrong)
    assert "1× UnboundLocalError" in " ".join(wrong)


def test_only_polls_failed_so_the_first_error_says_it_was_a_poll(tmp_path):
    m = _session()
    m.prompt("Is the SGLang server on 10.1.230.174 up yet?")
    seqs = [m.bash(HEALTH, REFUSED, exit_code=7)[1] for _ in range(3)]
    detection = postmortem_view(_analyze(tmp_path, m))["detection"]
    # (the failure in words: was "First error: connection: curl: ...", hardening 72)
    assert detection[-1] == (f"First error: {REFUSED} [msg {seqs[0]}] (main) "
                             "(while polling a service that was not up yet).")


def test_a_distilled_why_does_not_end_in_the_colon_that_led_into_the_command(tmp_path):
    m = _session()
    m.prompt("The standalone drafter test crashes on 10.1.230.174.")
    m.bash(TEST_RUN, UNBOUND, exit_code=1)
    # [msg 4401] as INCIDENT.md quotes it: the text leads into the command with a colon
    m.bash(f"ssh root@{GPU} 'grep -n \"def forward\\|cat\\|norm\" "
           "~/ml-env/lib/python3.12/site-packages/speculators/models/eagle3/core.py | head -60'",
           "357:        hidden_states = torch.cat([input_embeds, hidden_states], dim=-1)",
           text="The issue is that my code computes attn_input (the normed version) before the concat. "
                "Let me check the actual speculators code to get the exact forward pass right:")
    steps = distill_playbook(_analyze(tmp_path, m))["steps"]
    why = next(s["why"] for s in steps if "core.py" in s["run"])
    # before: "...forward pass right: It was the first step of a change of approach after [msg 1]."
    assert "right: It was" not in why
    assert "get the exact forward pass right. It was the first step of a change of approach" in why


# vLLM v1 logs these two lines every few seconds (vllm/v1/spec_decode/metrics.py SpecDecodingLogging.log,
# vllm/v1/metrics/loggers.py LoggingStatLogger.log)
def _vllm_log(accept_len: float, rate: float, tput: float) -> str:
    return (f"INFO 05-30 07:49:21 [metrics.py:86] SpecDecoding metrics: Mean acceptance length: {accept_len:.2f}, "
            "Accepted throughput: 12.30 tokens/s, Drafted throughput: 86.10 tokens/s, Accepted: 123 tokens, "
            "Drafted: 861 tokens, Per-position acceptance rate: 0.351, 0.063, 0.016, "
            f"Avg Draft acceptance rate: {rate}%\n"
            f"INFO 05-30 07:49:21 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
            f"throughput: {tput} tokens/s, Running: 1 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.4%, "
            "Prefix cache hit rate: 0.0%")


VLLM = "ssh -J admin@bastion.corp.example ubuntu@gpu02"


def test_the_first_slow_reading_starts_the_investigation_and_is_no_pivot(tmp_path):
    m = _session()
    m.prompt("Since we moved Llama-3.1-8B to vLLM with our EAGLE-3 draft, generation on gpu02 is slower: "
             "48 tok/s against 70 tok/s without speculation. Please find out why.")
    m.bash(f"{VLLM} 'tail -n 2 /var/log/vllm/server.log'", _vllm_log(1.43, 14.3, 48.6))
    m.bash(f"{VLLM} 'ps -eo args | grep [v]llm'",
           'vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {"method": "eagle3", '
           '"model": "/models/llama3-eagle3", "num_speculative_tokens": 1} --port 8000')
    analysis = _analyze(tmp_path, m)
    # before: "After throughput 48.6 tok/s not improving, baseline 70 [msg 1], moved from reading logs to
    # inspecting processes" - there was nothing yet to improve on
    assert analysis.pivots == []
    assert [s.title for s in analysis.segments] == [
        "Since we moved Llama-3.1-8B to vLLM with our EAGLE-3 draft… — Reading logs on gpu02"]


def test_a_reading_that_improved_but_is_under_the_baseline_is_not_called_flat(tmp_path):
    m = _session()
    m.prompt("EAGLE-3 on gpu02 is at 48 tok/s against a 70 tok/s baseline. Please find out why.")
    m.bash(f"{VLLM} 'tail -n 2 /var/log/vllm/server.log'", _vllm_log(1.43, 14.3, 48.6))
    _, second = m.bash(f"{VLLM} 'tail -n 2 /var/log/vllm/server.log'", _vllm_log(2.1, 40.0, 61.0))
    pivot_at = m.bash(f"{VLLM} 'cat /models/llama3-eagle3/config.json'", '{"draft_vocab_size": 32000}')[0]
    [pivot] = _analyze(tmp_path, m).pivots
    assert (pivot.seq, pivot.trigger_seq) == (pivot_at, second)
    # before: "After throughput 61 tok/s not improving, baseline 70": it rose by a quarter
    assert pivot.summary.startswith(f"After throughput 61 tok/s still below the 70 tok/s baseline [msg {second}], "
                                    "moved from reading logs to inspecting configs and checkpoints")


def _vllm_story(m: _Writer) -> None:
    m.prompt("Since we moved Llama-3.1-8B to vLLM with our EAGLE-3 draft, generation on gpu02 is slower: "
             "48 tok/s against 70 tok/s without speculation. Please find out why.")
    m.say("I'll look at the vLLM server log on gpu02 first.")
    m.bash(f"{VLLM} 'tail -n 2 /var/log/vllm/server.log'", _vllm_log(1.43, 14.3, 48.6))
    m.bash(f"{VLLM} 'ps -eo args | grep [v]llm'",
           'vllm serve meta-llama/Llama-3.1-8B-Instruct --speculative-config {"method": "eagle3", '
           '"model": "/models/llama3-eagle3", "num_speculative_tokens": 1} --port 8000')


def test_a_distilled_step_does_not_repeat_the_reasoning_of_the_step_before(tmp_path):
    m = _session()
    _vllm_story(m)
    audit, *steps = distill_playbook(_analyze(tmp_path, m))["steps"]
    assert audit["probe"] == "launch_flags"  # SD101 is the launch-flag probe's (round 28)
    assert [s["run"] for s in steps] == ["tail -n 2 {{ server_log }}", "ps -eo args | grep [v]llm"]
    assert steps[0]["why"].startswith("I'll look at the vLLM server log on gpu02 first.")
    # before: the ps step also said "I'll look at the vLLM server log on gpu02 first."
    assert steps[1]["why"] == ("In the session its output was evidence for SD101 "
                               "(Speculation capped at one drafted token per round).")


def test_a_distilled_playbook_names_the_jump_host_the_session_went_through(tmp_path):
    m = _session()
    _vllm_story(m)
    description = distill_playbook(_analyze(tmp_path, m))["description"]
    # before: only "--host gpu02", which does not reach a host behind the bastion
    assert description.endswith("Run against the host the session used, e.g. --host ubuntu@gpu02. The session reached it "
                                "through the jump host admin@bastion.corp.example: give gpu02 "
                                "`ProxyJump admin@bastion.corp.example` in ~/.ssh/config.")


# SGLang's bench_serving summary (python/sglang/bench_serving.py), as INCIDENT.md's session read it
def _bench(tput: float, accept: float) -> str:
    return ("============ Serving Benchmark Result ============\n"
            "Backend:                                 sglang\n"
            "Successful requests:                     64\n"
            f"Output token throughput (tok/s):         {tput}\n"
            f"Accept length:                           {accept}\n")


def test_the_postmortem_says_which_changes_the_rise_in_throughput_followed(tmp_path):
    from spec_debug.session.postmortem import render_postmortem
    launch = ("nohup python -m sglang.launch_server --model-path /models/Kimi-K2.5 --speculative-algorithm EAGLE3 "
              "--speculative-draft-model-path /models/kimi-k2.5-eagle3 --speculative-num-steps {} "
              "--speculative-eagle-topk 1 --speculative-num-draft-tokens {} --tp 8 --port 30000 > /root/sglang.log 2>&1 &")
    bench = f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
    m = _session()
    m.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is at 54.8 tok/s against a 90 tok/s baseline.")
    m.bash(bench, _bench(54.8, 1.02))
    edit = m.bash(f"ssh root@{GPU} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' "
                  "/root/launch_eagle3.sh\"", "")[0]
    relaunch = m.bash(f"ssh root@{GPU} '{launch.format(3, 4)}'", "")[0]
    _, risen = m.bash(bench, _bench(96.8, 3.41))
    view = postmortem_view(_analyze(tmp_path, m))
    # before: no section said what resolved it; the reader had to find msg 13 and 15 in the timeline
    assert view["resolution"] == [
        (f"Throughput rose from 54.8 to 96.8 tok/s on {GPU} [msg {risen}] after "
        "`sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch_eagle3.sh` "
        f"[msg {edit}], relaunching the server with `--speculative-algorithm EAGLE3 --speculative-draft-model-path "
        "/models/kimi-k2.5-eagle3 --speculative-num-steps 3 --speculative-eagle-topk 1 "
        f"--speculative-num-draft-tokens 4` [msg {relaunch}].")]
    md = render_postmortem(_analyze(tmp_path, m), "md")
    assert f"## Resolution\n\n- Throughput rose from 54.8 to 96.8 tok/s on {GPU} [[msg {risen}]](#msg-{risen})" in md
    assert f'<a id="msg-{edit}"></a>' in md  # the change links to its supporting entry
    html = render_postmortem(_analyze(tmp_path, m), "html")
    assert f'<h2>Resolution</h2>\n<ul><li>Throughput rose from 54.8 to 96.8 tok/s on {GPU} ' in html


def test_a_vllm_relaunch_is_told_by_its_num_speculative_tokens(tmp_path):
    m = _session()
    _vllm_story(m)
    relaunch = m.bash(f"{VLLM} 'pkill -f \"vllm serve\"; nohup vllm serve meta-llama/Llama-3.1-8B-Instruct "
                      "--speculative-config \"{\\\"method\\\": \\\"eagle3\\\", \\\"model\\\": \\\"/models/llama3-eagle3\\\", "
                      "\\\"num_speculative_tokens\\\": 3}\" --port 8000 > /var/log/vllm/server.log 2>&1 &'", "")[0]
    _, risen = m.bash(f"{VLLM} 'tail -n 2 /var/log/vllm/server.log'", _vllm_log(2.91, 63.5, 88.2))
    assert postmortem_view(_analyze(tmp_path, m))["resolution"] == [
        (f"Throughput rose from 48.6 to 88.2 tok/s on gpu02 [msg {risen}] after relaunching the server with "
        f"`\"num_speculative_tokens\": 3` [msg {relaunch}].")]


def test_a_reading_without_a_change_before_it_resolves_nothing(tmp_path):
    m = _session()
    m.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is slow.")
    bench = f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
    m.bash(bench, _bench(54.8, 1.02))
    m.bash(bench, _bench(70.1, 1.9))  # a warmer cache, nothing changed
    assert postmortem_view(_analyze(tmp_path, m))["resolution"] == []


# An on-call engineer's shell log on the GPU host (RHEL prompt), no report typed into it; the
# Decode batch lines are SGLang's (python/sglang/srt/managers/scheduler_metrics_mixin.py, log_decode_stats)
ONCALL_LOG = """\
[root@gpu01 ~]# tail -n 2 /var/log/sglang/server.log
[2026-03-02 08:10:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, accept len: 1.02, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 54.80, #queue-req: 0
[2026-03-02 08:11:00 TP0] Decode batch, #running-req: 1, #token: 901, token usage: 0.01, accept len: 1.03, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 54.90, #queue-req: 0
[root@gpu01 ~]# ps -eo args | grep [l]aunch_server
python -m sglang.launch_server --model-path /models/Kimi-K2.5 --speculative-algorithm EAGLE3 --speculative-draft-model-path /models/kimi-k2.5-eagle3 --speculative-num-steps 1 --speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --tp 8 --port 30000
[root@gpu01 ~]# sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch.sh && bash /root/launch.sh
[root@gpu01 ~]# python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 256
============ Serving Benchmark Result ============
Backend:                                 sglang
Successful requests:                     256
Output token throughput (tok/s):         2345.67
"""


def test_a_shell_log_postmortem_has_a_title_and_says_what_was_measured_first(tmp_path):
    from spec_debug.session.postmortem import render_postmortem
    log = tmp_path / "gpu01-oncall.log"
    log.write_text(ONCALL_LOG, encoding="utf-8")
    analysis = analyze_path(log)
    view = postmortem_view(analysis)
    # before: "Postmortem: Session analysis" and a detection section that named only an error
    assert view["title"] == "Speculation capped at one drafted token per round"
    first = next(m for m in analysis.metrics if m.name == "throughput")  # the tail's output
    assert "Decode batch" in first.context and first.host == "gpu01"
    assert view["detection"] == [f"First measured throughput: 54.85 tok/s on gpu01 [msg {first.seq}]."]
    md = render_postmortem(analysis, "md")
    # before: "2.35e+03 tok/s" and "54.9 tok/s" in the table beside a summary that said 54.85
    # The benchmark sent its 256 prompts at once, the Decode batch lines ran one request: no
    # before and after (was "Throughput went from 54.85 tok/s to 2345.67 tok/s", round 74)
    assert "| throughput | 2345.67 tok/s [[msg" in md
    assert "Throughput went from" not in md
    assert "<td>throughput</td><td>2345.67 tok/s" in render_postmortem(analysis, "html")


def test_a_phase_is_named_by_its_request_and_the_command_on_the_gpu_host_not_by_note_edits(tmp_path):
    m = _session()
    m.prompt("EAGLE-3 is slow on gpu01, look at the draft's vocab mapping.")
    m.tool("Grep", {"pattern": "hot_token_id", "path": "/root/sglang/python/sglang/srt/speculative"},
           "eagle_worker.py:120:        self.hot_token_id = None")
    second = m.prompt("ok. Now compare d2t in the draft checkpoint with the served one")
    m.bash("ssh gpu01 \"python -c 'import torch; print(torch.load(\\\"/models/kimi-k2.5-eagle3/d2t.pt\\\").shape)'\"",
           "torch.Size([32000])")
    for old, new in (("a", "b"), ("b", "c"), ("c", "d")):
        m.tool("Edit", {"file_path": "/root/notes.md", "old_string": old, "new_string": new}, "ok")
    phase = next(s for s in _analyze(tmp_path, m).segments if s.start_seq == second)
    # before: "ok. — Editing code on gpu01" (three local edits outweighed the one command on gpu01)
    assert phase.title == "Now compare d2t in the draft checkpoint with the served one — Running Python on gpu01"


def test_before_and_after_are_read_on_the_same_host(tmp_path):
    m = _session()
    m.prompt("EAGLE-3 on gpu01 is slower than on gpu02, which serves the same draft. Please compare them.")
    bench = "ssh {} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
    m.bash(bench.format("root@gpu02"), _bench(96.8, 3.41))  # the healthy host, for reference
    _, slow = m.bash(bench.format("root@gpu01"), _bench(54.8, 1.02))
    m.bash("ssh root@gpu01 \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch.sh\"", "")
    _, fixed = m.bash(bench.format("root@gpu01"), _bench(95.9, 3.38))
    view = postmortem_view(_analyze(tmp_path, m))
    row = view["impact"]["throughput"]
    # before: "from 96.8 tok/s [msg 2] to 95.9 tok/s": gpu02's reading as gpu01's before
    assert (row["before"], row["before_seq"], row["after"], row["after_seq"], row["host"], row["readings"]) == (
        54.8, slow, 95.9, fixed, "gpu01", 2)
    # (round 30: the host named, since gpu02 was measured too)
    assert f"Throughput on gpu01 went from 54.8 tok/s [msg {slow}] to 95.9 tok/s [msg {fixed}]." in view["summary"]
    assert [line.split(" after ")[0] for line in view["resolution"]] == [
        f"Throughput rose from 54.8 to 95.9 tok/s on gpu01 [msg {fixed}]"]


def test_a_fixed_slowdown_is_not_told_to_serve_without_speculation(tmp_path):
    bench = f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
    m = _session()
    m.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is at 54.8 tok/s against a 90 tok/s baseline.")
    m.bash(bench, _bench(54.8, 1.02))
    m.bash(f"ssh root@{GPU} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch.sh\"", "")
    m.bash(bench, _bench(96.8, 3.41))
    view = postmortem_view(_analyze(tmp_path, m))
    assert "SD501" in [f["code"] for f in view["root_causes"]]  # still told as found
    # before: SD501's "until fixed, serve without speculation" after the session fixed it (96.8 > 90)
    assert "SD501" not in [item["source"].split()[0] for item in view["action_items"]]

    still = _session()
    still.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is at 54.8 tok/s against a 90 tok/s baseline.")
    still.bash(bench, _bench(54.8, 1.02))
    still.bash(bench, _bench(61.2, 2.31))
    assert "SD501" in [item["source"].split()[0]
                       for item in postmortem_view(_analyze(tmp_path, still))["action_items"]]


def test_no_distill_action_when_distill_would_find_nothing(tmp_path):
    m = _session()
    # SD501 from the report alone: the only evidence is the prompt, no command to distill
    m.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is at 54.8 tok/s against a 90 tok/s baseline.")
    m.say("I'll need access to the host to look at this.")
    analysis = _analyze(tmp_path, m)
    assert [f.code for f in analysis.findings] == ["SD501"]
    # before: "Turn the commands that mattered into a playbook: `spec-debug distill`", which then
    # said "nothing to distill"
    assert [item["source"] for item in postmortem_view(analysis)["action_items"]] == ["SD501 [msg 0]"]


def test_the_timeline_tells_failed_polls_from_errors(tmp_path):
    m = _session()
    first_poll, crash = _restart_and_crash(m)
    kinds = {row["seq"]: row["kind"] for row in postmortem_view(_analyze(tmp_path, m))["timeline"]}
    # before: four "error" rows for the health checks of a server that was still loading
    assert kinds[first_poll + 1] == "poll failed"
    assert kinds[crash] == "error"


def test_reading_the_launch_help_is_not_a_change_the_rise_followed(tmp_path):
    bench = f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --port 30000 --num-prompts 64'"
    m = _session()
    m.prompt("EAGLE-3 for Kimi-K2.5 on 10.1.230.174 is slow.")
    m.bash(bench, _bench(54.8, 1.02))
    m.bash(f"ssh root@{GPU} '~/ml-env/bin/python -m sglang.launch_server --help'",
           "usage: launch_server.py [-h] --model-path MODEL_PATH [--speculative-num-steps SPECULATIVE_NUM_STEPS]")
    edit = m.bash(f"ssh root@{GPU} \"sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' "
                  "/root/launch.sh\"", "")[0]
    _, risen = m.bash(bench, _bench(96.8, 3.41))
    # before: "...after `~/ml-env/bin/python -m sglang.launch_server --help` [msg 3], `sed -i ...`"
    assert postmortem_view(_analyze(tmp_path, m))["resolution"] == [
        (f"Throughput rose from 54.8 to 96.8 tok/s on {GPU} [msg {risen}] after "
        f"`sed -i 's/--speculative-num-steps 1 /--speculative-num-steps 3 /' /root/launch.sh` [msg {edit}].")]


def test_a_tie_between_hosts_goes_to_the_gpu_host_the_session_worked_on(tmp_path):
    m = _session()
    m.prompt("Is it my weights or the engine? The draft reached 74.7% in training but serving is slow on "
             "10.1.230.174.")
    m.bash("ssh -p 2222 ubuntu@train-node-2 'grep val_acc /data/runs/eagle3/train.log | tail -n 1'",
           "step 48000 | epoch 9 | val_loss=1.12 | val_acc=0.747")
    m.bash(f"scp /tmp/test_drafter_standalone.py root@{GPU}:/tmp/", "")
    m.bash(f"ssh root@{GPU} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'", "standalone top-1 accuracy: 31.0%")
    doc = distill_playbook(_analyze(tmp_path, m))
    # before: "--host train-node-2" (the first of two hosts with one chosen step each), and the
    # standalone test became `ssh root@{{ host_10_1_230_174 }} '...'` run from the training host
    assert doc["description"].endswith(f"Run against the host the session used, e.g. --host root@{GPU}.")
    assert [s["run"] for s in doc["steps"]] == [
        "ssh -p 2222 ubuntu@{{ host_train_node_2 }} 'grep val_acc /data/runs/eagle3/train.log | tail -n 1'",
        "{{ python }} {{ test_drafter_standalone_py }}"]


SHOWCASE = Path(__file__).resolve().parents[1] / "data/transcripts/claude-code/minimal_showcase"


def test_a_phase_that_only_spawned_agents_does_not_claim_it_ran_commands():
    # daaain/claude-code-log test/test_data/minimal_showcase: the trunk only calls Agent and MCP tools
    analysis = analyze_path(SHOWCASE / "55550000-0000-4000-8000-000000000001.jsonl")
    trunk = next(s for s in analysis.segments if s.agent == "main")
    assert trunk.commands == 0
    # before: "Give me a tour of the repository: its structure, then compare the web… — Running commands"
    assert trunk.title == "Give me a tour of the repository: its structure, then compare the web…"


def test_a_sub_agent_without_a_description_is_named_by_what_it_ran(tmp_path):
    session = "7e1a0000-0000-4000-8000-00000000ff07"
    m = _Writer(session, None, START)
    m.prompt("Check the draft on the training host.")
    m.spawn("e5eval", "toolu_spawn_e5eval", "", "Run the draft eval on train01.", "71.2%", trunk=True)
    (tmp_path / f"{session}.jsonl").write_text("\n".join(m.lines) + "\n", encoding="utf-8")
    sub = _Writer(session, "e5eval", START)
    sub.prompt("Run the draft eval on train01.")
    sub.bash("ssh train01 '~/venv/bin/python /data/eagle3/eval_draft.py --ckpt /data/eagle3/ckpt'",
             "top-1 accuracy: 71.2%")
    folder = tmp_path / session / "subagents"
    folder.mkdir(parents=True)
    # no agent-e5eval.meta.json: CLI 2.0.x wrote none (TRANSCRIPTS.md section 1a)
    (folder / "agent-e5eval.jsonl").write_text("\n".join(sub.lines) + "\n", encoding="utf-8")
    analysis = analyze_path(tmp_path / f"{session}.jsonl")
    phase = next(s for s in analysis.segments if s.agent == "e5eval")
    # before: "Sub-agent e5eval", which says nothing of what it did
    assert phase.title == "Sub-agent e5eval — Running Python on train01"


def test_two_sessions_in_a_folder_keep_their_message_numbers_apart(tmp_path):
    from spec_debug.session.postmortem import render_postmortem
    gpu01 = _Writer("7e1a0000-0000-4000-8000-00000000aa01", None, START)
    gpu01.prompt("EAGLE-3 on gpu01 is at 54.8 tok/s against a 90 tok/s baseline.")
    _, flags = gpu01.bash("ssh root@gpu01 'ps -eo args | grep [l]aunch_server'",
                          "python -m sglang.launch_server --model-path /models/Kimi-K2.5 --speculative-algorithm EAGLE3 "
                          "--speculative-draft-model-path /models/kimi-k2.5-eagle3 --speculative-num-steps 1 "
                          "--speculative-eagle-topk 1 --speculative-num-draft-tokens 2 --tp 8 --port 30000")
    train = _Writer("7e1a0000-0000-4000-8000-00000000aa02", None, START)
    train.prompt("Did the draft train well?")
    _, val = train.bash("ssh -p 2222 ubuntu@train-node-2 'grep val_acc /data/runs/eagle3/train.log | tail -n 1'",
                        "step 48000 | epoch 9 | val_loss=1.12 | val_acc=0.747")
    assert flags == val  # both sessions have a [msg 2]
    for w in (gpu01, train):
        # real session files carry UUID4s; the writer's counters would make one a "resumed copy"
        lines = [line.replace('"main-0', f'"{w.session[-4:]}-0') for line in w.lines]
        (tmp_path / f"{w.session}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    analysis = analyze_path(tmp_path)
    assert len(analysis.sessions) == 2
    md = render_postmortem(analysis, "md")
    # before: one "msg-2" entry mixing gpu01's SD101 with train-node-2's file and command
    assert md.count(f'<a id="msg-{flags}"></a>') == 0
    [first] = [line for line in md.splitlines() if line.startswith(f'- <a id="msg-1-{flags}"></a>')]
    [second] = [line for line in md.splitlines() if line.startswith(f'- <a id="msg-2-{val}"></a>')]
    assert "SD101" in first and "train-node-2" not in first
    assert "aa02.jsonl" in second and "SD101" not in second
    assert f"Root causes found: SD101 Speculation capped at one drafted token per round [[msg 1:{flags}]](#msg-1-{flags})" in md
    assert "\n\n_[msg k:N] is message N of the k-th session listed._\n" in md
    html = render_postmortem(analysis, "html")
    assert f'<a href="#msg-1-{flags}">[msg 1:{flags}]</a>' in html and f'id="msg-1-{flags}"' in html
