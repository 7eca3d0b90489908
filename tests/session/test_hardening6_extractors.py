"""What `spec-debug analyze` finds in texts that real EAGLE-3 debugging sessions hold and that
used to give a wrong answer: each test names the wrong answer it replaced. Engine, library
and tool texts are copied from the program that prints them (cited per case)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from tests.session.incident_story import _Writer

GPU = "10.1.230.174"
SITE = "~/ml-env/lib/python3.12/site-packages"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)


def _analyze(tmp_path: Path, writer: _Writer):
    path = tmp_path / "7e1a0000-0000-4000-8000-00000000aa06.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _session() -> _Writer:
    return _Writer("7e1a0000-0000-4000-8000-00000000aa06", None, START)


# -- SD201: only concatenations of target layers' hidden states --------------------------

# sgl-project/sglang python/sglang/srt/models/llama_eagle3.py (LlamaDecoderLayer.forward of
# the draft's midlayer) and speculators src/speculators/models/eagle3/core.py: the same
# [token embedding, fc output] concat under two names. Neither is the draft *input*.
SGLANG_MIDLAYER = ("112:        embeds = self.input_layernorm(embeds)\n"
                   "113:        hidden_states = self.hidden_norm(hidden_states)\n"
                   "114:        hidden_states = torch.cat([embeds, hidden_states], dim=-1)")
SPECULATORS_MIDLAYER = "357:        hidden_states = torch.cat([input_embeds, hidden_states], dim=-1)"
# vllm-project/vllm vllm/model_executor/models/deepseek_v2.py (DeepseekV2Model.forward): the
# all-gather of the residual stream under sequence parallelism; no hidden-state order either.
VLLM_ALL_GATHER = "        combined_states = torch.cat([hidden_states, residual], dim=-1)"


def test_unrelated_two_item_concatenations_are_no_sd201(tmp_path):
    # before: SD201 "cat([embeds, hidden_states]) vs cat([input_embeds, hidden_states])" and
    # "... vs cat([hidden_states, residual])": any two different orders of one length
    m = _session()
    m.prompt("EAGLE-3 on Qwen3 is slower than without speculation on gpu01; find out why.")
    m.bash(f"ssh root@{GPU} \"grep -n 'torch.cat' /sgl/python/sglang/srt/models/llama_eagle3.py\"", SGLANG_MIDLAYER)
    m.bash(f"ssh root@{GPU} \"grep -n 'torch.cat' {SITE}/speculators/models/eagle3/core.py\"", SPECULATORS_MIDLAYER)
    m.bash(f"ssh root@{GPU} \"grep -n 'torch.cat' {SITE}/vllm/model_executor/models/deepseek_v2.py\"", VLLM_ALL_GATHER)
    a = _analyze(tmp_path, m)
    assert [f.code for f in a.findings] == []
    # every order is still listed for the reader
    assert [o["order"] for o in a.concat_orders] == [
        ["embeds", "hidden_states"], ["input_embeds", "hidden_states"], ["hidden_states", "residual"]]


def test_the_incident_concat_mismatch_still_fires(tmp_path):
    m = _session()
    m.prompt("EAGLE-3 on Kimi-K2.5 gives 54.8 tok/s against a 90 tok/s baseline.")
    trained = m.say("The speculators data generation built the draft input as cat([embed_output, layer3, layer31]).")
    m.bash(f"ssh root@{GPU} \"grep -n 'torch.cat' {SITE}/vllm/model_executor/models/deepseek_v2.py\"", VLLM_ALL_GATHER)
    _, served = m.bash(f"ssh root@{GPU} \"grep -n 'capture' /sgl/python/sglang/srt/models/deepseek_v2.py\"",
                       "1873:        # eagle3: hidden = torch.cat([layer3, layer31, layer59], dim=-1)")
    a = _analyze(tmp_path, m)
    [sd201] = [f for f in a.findings if f.code == "SD201"]
    assert sd201.evidence == [f"[msg {trained}] cat([embed_output, layer3, layer31]) vs "
                              f"[msg {served}] cat([layer3, layer31, layer59])"]


def test_one_set_of_layers_spelled_two_ways_is_no_mismatch(tmp_path):
    # before: SD201 "cat([hs[3], hs[31], hs[59]]) vs cat([layer3, layer31, layer59])"
    m = _session()
    m.prompt("Check that the served hidden states are the ones the draft was trained on.")
    m.say("The dump script does torch.cat([hs[3], hs[31], hs[59]], dim=-1) for the served side.")
    m.bash(f"ssh root@{GPU} \"grep -n 'capture' /sgl/python/sglang/srt/models/deepseek_v2.py\"",
           "1873:        # eagle3: hidden = torch.cat([layer3, layer31, layer59], dim=-1)")
    # positions in SGLang's captured list are no layer ids to compare with
    m.say("So the draft sees torch.cat([aux_hidden_states[0], aux_hidden_states[1], aux_hidden_states[2]], dim=-1).")
    assert [f.code for f in _analyze(tmp_path, m).findings] == []


# -- throughput as people write it ---------------------------------------------------------

def _readings(text: str) -> list[tuple[str, float]]:
    from spec_debug.session.metrics import extract_metrics
    return [(m.name, m.value) for m in extract_metrics(text)]


def test_thousands_separators_and_ranges():
    # before: 234.5 (the digits after the comma) and 55.0 (the top of the range)
    assert _readings("Total throughput with 64 concurrent requests is now 1,234.5 tok/s.") == [("throughput", 1234.5)]
    assert _readings("Batch 256 reaches 12,480 tokens/s on 8xH200.") == [("throughput", 12480.0)]
    assert _readings("With the new draft we get 50-55 tok/s per request.") == [("throughput", 52.5)]
    assert _readings("EAGLE-3 sits at 61\u201363 tok/s.") == [("throughput", 62.0)]
    # a list of readings is no thousands number, and "from A to B" is two readings
    assert _readings("readings 54.8, 61.2 tok/s") == [("throughput", 61.2)]
    assert _readings("went from 54.8 tok/s to 96.8 tok/s") == [("throughput", 54.8), ("throughput", 96.8)]


def test_the_run_without_speculation_is_the_baseline_in_every_usual_wording():
    # before: each of these baselines was an ordinary throughput, so SD501 never fired
    assert _readings("90 tok/s without speculation, 54.8 tok/s with EAGLE-3") == [
        ("baseline_throughput", 90.0), ("throughput", 54.8)]
    assert _readings("Without spec decoding: 90.1 tok/s. With EAGLE-3: 54.8 tok/s.") == [
        ("baseline_throughput", 90.1), ("throughput", 54.8)]
    assert _readings("w/o EAGLE: 88 tok/s") == [("baseline_throughput", 88.0)]
    assert _readings("Qwen3-8B at 90 tok/s (no spec) vs 61 tok/s with the draft") == [
        ("baseline_throughput", 90.0), ("throughput", 61.0)]
    # with the draft is no baseline
    assert _readings("with the draft model at 54.8 tok/s") == [("throughput", 54.8)]


def test_a_slower_speculative_run_against_a_baseline_written_without_the_word_baseline_is_sd501(tmp_path):
    m = _session()
    m.prompt("Without spec decoding: 90 tok/s on gpu01. With EAGLE-3: 54.8 tok/s. Why is the draft slower?")
    a = _analyze(tmp_path, m)
    [sd501] = [f for f in a.findings if f.code == "SD501"]
    assert sd501.evidence == ["[msg 0] 54.8 tok/s measured vs 90 tok/s baseline"]


# The summary table an agent writes at the end of a tuning round (GitHub Markdown tables).
SUMMARY_TABLE = """Here is where we are:

| Config | Output tok/s | Accept len | Accept rate |
|---|---:|---:|---:|
| Baseline (no spec) | 90.1 | - | - |
| EAGLE-3, num-steps 1 | 54.8 | 1.82 | 0.41 |
| EAGLE-3, fixed hidden states | **96.8** | 3.41 | 0.71 |

So the format fix is what mattered; 1.07x over baseline."""

BEFORE_AFTER_TABLE = """| Metric | Before | After |
|--------|--------|-------|
| Throughput (tok/s) | 54.8 | 96.8 |
| Accept length | 1.9 | 3.4 |
| TPOT (ms) | 18.2 | 10.3 |"""


def test_markdown_tables_of_runs_give_their_readings():
    # before: nothing at all from either table
    assert _readings(SUMMARY_TABLE) == [
        ("baseline_throughput", 90.1), ("throughput", 54.8), ("accept_length", 1.82), ("accept_rate", 0.41),
        ("throughput", 96.8), ("accept_length", 3.41), ("accept_rate", 0.71),
        ("speedup", 1.07)]  # the prose's "1.07x over baseline" (round 30: a factor set against the baseline)
    assert _readings(BEFORE_AFTER_TABLE) == [
        ("throughput", 54.8), ("throughput", 96.8), ("accept_length", 1.9), ("accept_length", 3.4)]
    # a cell with its own unit is read once, not again by the prose scan
    assert _readings("| run | tok/s |\n| --- | --- |\n| spec off | 1,210.4 tok/s |\n| EAGLE-3 | 980.2 tok/s |\n") == [
        ("baseline_throughput", 1210.4), ("throughput", 980.2)]
    # columns of other quantities are no throughput (a speedup is a factor)
    assert _readings("| Model | Speedup | TTFT throughput-bound (ms) |\n|---|---|---|\n| Llama-8B | 1.6x | 35 |") == [
        ("speedup", 1.6)]


def test_a_summary_table_makes_the_postmortem_impact_and_sd501(tmp_path):
    m = _session()
    m.prompt("EAGLE-3 made serving slower on gpu01.")
    seq = m.say(SUMMARY_TABLE)
    a = _analyze(tmp_path, m)
    [sd501] = [f for f in a.findings if f.code == "SD501"]
    assert sd501.evidence == [f"[msg {seq}] 54.8 tok/s measured vs 90.1 tok/s baseline"]
    assert [(r.name, r.value) for r in a.metrics if r.name == "throughput"] == [
        ("throughput", 54.8), ("throughput", 96.8)]


# -- where a command runs --------------------------------------------------------------------

def _where(command: str) -> tuple:
    from spec_debug.session.shell import categorize, parse_target
    t = parse_target(command)
    return t.host, t.user, t.container, t.inner, categorize(command)


def test_the_wait_loop_and_other_compound_commands_keep_their_host():
    # before: host None for each (the first word was a reserved word, not ssh)
    assert _where("while ! ssh gpu01 curl -sf http://localhost:30000/health; do sleep 5; done") == (
        "gpu01", None, None, "curl -sf http://localhost:30000/health", "health")
    assert _where("until ssh root@10.1.230.174 'curl -s localhost:30000/health'; do sleep 10; done")[:2] == (
        "10.1.230.174", "root")
    assert _where("if ssh gpu01 test -f /models/eagle3/config.json; then echo ok; fi")[0] == "gpu01"


def test_su_runuser_and_watch_run_their_command_where_it_goes():
    # before: host None for each
    assert _where("su - deploy -c 'ssh gpu01 nvidia-smi'") == ("gpu01", None, None, "nvidia-smi", "gpu_status")
    assert _where("runuser -u deploy -- ssh -p 2222 gpu02 'tail -n 200 /var/log/sglang.log'")[0] == "gpu02"
    assert _where("watch -n 1 ssh gpu03 nvidia-smi") == ("gpu03", None, None, "nvidia-smi", "gpu_status")
    assert _where("sudo su ubuntu -c \"docker exec sglang nvidia-smi\"")[2] == "docker:sglang"
    # su without a remote command stays where the session ran
    assert _where("su - deploy -c 'nvidia-smi'")[0] is None


def test_a_destination_in_a_variable_is_its_value_or_no_host_at_all():
    # before: the host was the text "$GPU" / "$h"
    assert _where("GPU=10.1.230.174; ssh root@$GPU 'nvidia-smi'")[:2] == ("10.1.230.174", "root")
    assert _where("export H=gpu01 && ssh ${H} nvidia-smi")[0] == "gpu01"
    assert _where("for h in gpu01 gpu02; do ssh $h nvidia-smi; done")[0] is None  # several hosts, no one host
    assert _where("ssh $TARGET_HOST nvidia-smi")[0] is None  # set in another command


# -- errors in a server log read with exit status 0, and library-worded CUDA faults ------------

def _errors(text: str, exit_code: int | None = 0) -> list[tuple]:
    from spec_debug.session.failures import extract_errors
    return [(e.kind, e.exception, e.message, e.file, e.line) for e in extract_errors(text, exit_code)]


# sgl-project/sglang#5491 (an EAGLE verify step crashing): FlashInfer's FLASHINFER_CUDA_CALL
# line, then the scheduler's traceback ending in FlashInfer's own RuntimeError.
FLASHINFER_IMA = (
    "CUDA Error: an illegal memory access was encountered (700) /opt/conda/lib/python3.10/site-packages/flashinfer/"
    "data/include/flashinfer/attention/prefill.cuh: line 2349 at function cudaLaunchKernel((void*)kernel, nblks, "
    "nthrs, args, smem_size, stream)\n")
SCHEDULER_TRACEBACK = (
    "[2025-04-22 15:12:46 TP0] Scheduler hit an exception: Traceback (most recent call last):\n"
    '  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/managers/scheduler.py", line 2011, in run_scheduler_process\n'
    "    scheduler.event_loop_normal()\n"
    '  File "/opt/conda/lib/python3.10/site-packages/sglang/srt/speculative/eagle_worker.py", line 258, in '
    "forward_batch_speculative_generation\n"
    "    logits_output, v = self.verify(batch, spec_info)\n"
    "RuntimeError: Error in function 'BatchPrefillWithPagedKVCacheSM80Run' at /opt/conda/lib/python3.10/site-packages/"
    "flashinfer/data/include/flashinfer/attention/prefill.cuh:2349: an illegal memory access was encountered\n")


def test_flashinfer_cuda_faults_are_cuda_errors():
    # before: nothing for the CUDA Error line of a log tail (exit 0), and kind "traceback"
    # for the exception that carries the same fault in FlashInfer's words
    assert _errors(FLASHINFER_IMA) == [("cuda_error", None, FLASHINFER_IMA.strip()[:300], None, None)]
    [(kind, exception, message, file, line)] = _errors(FLASHINFER_IMA + SCHEDULER_TRACEBACK)
    assert (kind, exception, file, line) == (
        "cuda_error", "RuntimeError", "/opt/conda/lib/python3.10/site-packages/sglang/srt/speculative/eagle_worker.py", 258)
    assert message.endswith("an illegal memory access was encountered")


def test_an_uncaught_cpp_exception_is_an_error_with_its_type_and_what():
    # tensorflow/tensor2tensor#192: libstdc++'s terminate handler, then the abort
    text = ("INFO:tensorflow:Evaluation [3/10]\n"
            "terminate called after throwing an instance of 'std::bad_alloc'\n  what():  std::bad_alloc\nAborted\n")
    # before: nothing when the log was read with exit 0, "Aborted" (no type, no what) with 134
    assert _errors(text) == [("exception", "std::bad_alloc", "std::bad_alloc", None, None)]
    assert _errors(text, 134) == [("exception", "std::bad_alloc", "std::bad_alloc", None, None)]


def test_rust_panics_in_both_formats():
    # linera-io/linera-protocol#5412 (Rust >= 1.73: location line, message below) and
    # Itsusinn/tuic#45 (older: the message quoted before the location)
    new = ("thread 'tokio-runtime-worker' panicked at /Users/mathieu/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/"
           "tokio-1.47.1/src/runtime/time/entry.rs:602:9:\nA Tokio 1.x context was found, but it is being shutdown.\n"
           "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n")
    old = ("thread 'tokio-runtime-worker' panicked at 'index out of bounds: the len is 0 but the index is 0', "
           "/project/tuic/src/model/packet.rs:257:32\n")
    # before: nothing with exit 0; with exit 101 only "exit_code" and the location line
    assert _errors(new) == _errors(new, 101) == [(
        "exception", "panic", "A Tokio 1.x context was found, but it is being shutdown.",
        "/Users/mathieu/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/tokio-1.47.1/src/runtime/time/entry.rs", 602)]
    assert _errors(old) == [("exception", "panic", "index out of bounds: the len is 0 but the index is 0",
                             "/project/tuic/src/model/packet.rs", 257)]


# -- hypotheses and their outcomes ----------------------------------------------------------------

def test_a_suspect_shown_innocent_is_ruled_out_in_the_postmortem(tmp_path):
    from spec_debug.session.postmortem import render_postmortem
    m = _session()
    m.prompt("EAGLE-3 accept length is 1.0 on gpu01.")
    m.say("It might be worth checking the server log first.")  # before: a "hypothesis"
    hyp = m.say("I suspect the d2t mapping is wrong: the draft vocab is 32000 and the target 163840.")
    m.bash(f"ssh root@{GPU} \"python3 /root/check_d2t.py /models/kimi-k2.5-eagle3\"",
           "d2t: 32000 entries, offsets, max target id 163839")
    # before: ("confirmed", ...): the word "confirmed" won over what was confirmed
    settled = m.say("I confirmed that the d2t mapping is not the issue: it is an offset table.")
    a = _analyze(tmp_path, m)
    assert [(h.seq, h.status, h.outcome_seq) for h in a.hypotheses] == [(hyp, "ruled_out", settled)]
    md = render_postmortem(a, "md")
    assert "Hypothesis ruled out" in md and "Hypothesis confirmed" not in md


def test_outcomes_in_everyday_wording():
    from spec_debug.session.reasoning import hypotheses, outcome
    # before: None for each
    assert outcome("Hmm, same throughput. So the flag wasn't the cause.") == (
        "ruled_out", "So the flag wasn't the cause.")
    assert outcome("Setting --speculative-eagle-topk 8 didn't change anything.")[0] == "ruled_out"
    assert outcome("Good news: the fix works. Throughput is 96.8 tok/s.") == ("confirmed", "Good news: the fix works.")
    assert outcome("That worked before the upgrade, but not now.") is None
    assert hypotheses("Now I can see the issue: the aux layer ids are shifted by one.") == [
        "Now I can see the issue: the aux layer ids are shifted by one."]
    # before: each of these was a hypothesis
    assert hypotheses("This could be useful later. The benchmark might be a bit noisy.") == []
    assert hypotheses("It might be the tokenizer.") == ["It might be the tokenizer."]


# sgl-project/sglang python/sglang/bench_one_batch_server.py (get_report_summary): the report
# table it prints with --show-report, rows formatted "| {bs} | {input_len} | {latency:.2f} | ...".
ONE_BATCH_SERVER_REPORT = """
Input lens: [1024]. Output lens: [512].
| batch size | input len | latency (s) | input throughput (tok/s)  | output throughput (tok/s) | acc length | ITL (ms) | input cost ($/1M) | output cost ($/1M) |
| ---------- | --------- | ----------- | ------------------------- | ------------------------- | ---------- | -------- | ----------------- | ------------------ |
| 1 | 1024 | 4.12 | 10342.18 | 128.44 | 3.21 | 7.79 | 0.08 | 4.33 |
| 16 | 1024 | 9.87 | 41210.55 | 912.30 | n/a | 17.54 | 0.02 | 0.61 |
"""


def test_bench_one_batch_server_report_and_t_per_s_tables():
    # before: nothing (and then "acc length" and "t/s" columns were not known)
    assert _readings(ONE_BATCH_SERVER_REPORT) == [
        ("throughput", 128.44), ("accept_length", 3.21), ("throughput", 912.3)]
    # a speedup row is no throughput, though its cell has a percentage in it
    table = ("| Mode | t/s | Acc length |\n|------|-----|------------|\n| Baseline (no spec) | ~72 | - |\n"
             "| EAGLE3 | ~103 | 3.2 |\n| Speedup | 1.44x (+44%) | - |")
    assert _readings(table) == [("baseline_throughput", 72.0), ("throughput", 103.0), ("accept_length", 3.2),
                                ("speedup", 1.44)]


def test_tokens_per_second_spelled_out():
    # before: nothing
    assert _readings("We measured 96.8 tokens/second, 90 tokens/second without speculation.") == [
        ("baseline_throughput", 90.0), ("throughput", 96.8)]


def test_a_standalone_and_a_claimed_accuracy_in_one_sentence_are_told_apart(tmp_path):
    # before: one reading, "standalone_accuracy 74.7" (the claimed number, under the wrong
    # name), and no SD401
    text = "Standalone test: 12.3% top-1 acc (vs 74.7% val acc in training)"
    assert _readings(text) == [("validation_accuracy", 74.7), ("standalone_accuracy", 12.3)]
    assert _readings("Top-1 acc 74.7%") == [("accuracy", 74.7)]
    assert _readings("acc 3 steps, accept len 2") == [("accept_length", 2.0)]
    m = _session()
    m.prompt("The EAGLE-3 draft for Kimi-K2.5 is slow on gpu01.")
    seq = m.say(text)
    [sd401] = [f for f in _analyze(tmp_path, m).findings if f.code == "SD401"]
    assert sd401.evidence == [f"[msg {seq}] standalone accuracy 12.3% [msg {seq}] vs claimed 74.7% [msg {seq}]"]


def test_a_script_run_in_a_container_is_the_command_shown_and_categorised():
    # before: inner "sh -c cat /models/eagle3/config.json" (category "other") and
    # "bash -c nvidia-smi && tail -n 50 /tmp/log" (the quoting lost: two commands)
    assert _where("kubectl exec sglang-0 -c server -- sh -c 'cat /models/eagle3/config.json'") == (
        None, None, "pod:sglang-0", "cat /models/eagle3/config.json", "inspect_config")
    assert _where("kubectl exec -it sglang-0 -- bash -c 'nvidia-smi && tail -n 50 /tmp/log'")[3] == (
        "nvidia-smi && tail -n 50 /tmp/log")
    # words passed as argv are quoted again where they hold spaces
    assert _where('docker exec sglang python3 -c "import sglang; print(sglang.__version__)"')[3] == (
        "python3 -c 'import sglang; print(sglang.__version__)'")


# -- reading the engine's source is no error ---------------------------------------------------

def test_source_code_that_names_an_error_is_no_error_but_the_log_that_reports_one_is(tmp_path):
    m = _session()
    m.prompt("The SGLang server on gpu01 dies at start with EAGLE-3.")
    source = ("  1201\t        try:\n  1202\t            self.init_memory_pool(total_gpu_memory)\n"
              "  1203\t        except torch.cuda.OutOfMemoryError as e:\n"
              '  1204\t            raise RuntimeError("CUDA out of memory while allocating the KV cache") from e\n')
    m.tool("Read", {"file_path": "/sgl/python/sglang/srt/model_executor/model_runner.py"}, source)
    m.bash(f"ssh root@{GPU} 'cat /sgl/python/sglang/srt/model_executor/model_runner.py | sed -n 1201,1204p'",
           source.replace("\t", "  "))
    m.bash(f"ssh root@{GPU} \"grep -rn -A1 'OutOfMemoryError\\|NCCL error' /sgl/python/sglang/srt/\"",
           "/sgl/python/sglang/srt/model_executor/model_runner.py:1203:        except torch.cuda.OutOfMemoryError as e:\n"
           '/sgl/python/sglang/srt/model_executor/model_runner.py-1204-            raise RuntimeError("CUDA out of '
           'memory while allocating the KV cache") from e\n'
           '/sgl/python/sglang/srt/distributed/utils.py:88:        logger.error(f"NCCL error: {e}")\n')
    _, log = m.bash(f"ssh root@{GPU} \"grep -n 'CUDA error' /root/sglang_server.log\"",
                    "1523:[2026-03-02 08:10:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered")
    a = _analyze(tmp_path, m)
    # before: cuda_oom three times (the Read, the sed and the grep hits), and no pivot-worthy run of errors
    assert [(e.seq, e.kind, e.message) for e in a.errors] == [
        (log, "cuda_error", "CUDA error: an illegal memory access was encountered")]
    assert a.stats["errors"] == 1


def test_the_kind_of_a_command_behind_setup_steps_sudo_and_bash_c():
    # before: "other" for each (the first word was cd, sudo or bash)
    assert _where('ssh gpu01 "cd /sgl && grep -rn speculative_num_steps python/sglang/srt/server_args.py"')[4] == (
        "read_source")
    assert _where('ssh gpu01 "sudo docker logs --tail 100 sglang 2>&1 | grep -i error"')[4] == "logs"
    assert _where("kubectl -n infer logs sglang-0 --tail 200")[4] == "logs"
    assert _where("sudo bash -c 'journalctl -u sglang -n 100'")[4] == "logs"
    assert _where("bash -lc 'cat /models/eagle3/config.json'")[4] == "inspect_config"
    # ssh joins its words: the remote bash runs "tail" alone, but the words say what was meant
    assert _where('ssh -t gpu01 sudo -u svc bash -c "tail -n 50 /var/log/sglang.log"')[4] == "logs"


def test_gcloud_ssh_flags_after_the_double_dash_are_no_command():
    # before: inner "30000:localhost:30000" (the -L value taken for the command)
    assert _where("gcloud compute ssh gpu-vm --zone us-central1-a -- -L 30000:localhost:30000")[:4] == (
        "gpu-vm", None, None, "")
    assert _where("gcloud compute ssh gpu-vm --zone us-central1-a -- -t nvidia-smi")[3:] == ("nvidia-smi", "gpu_status")


def test_the_exception_type_behind_a_log_prefix_is_kept():
    # a log tail read with exit 0: SGLang's "[time TP0] " prefix, vLLM's worker prefix
    # (vllm-project/vllm#17756); before: exception None for both
    assert _errors("[2026-03-02 08:10:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered")[0][:2] == (
        "cuda_error", "RuntimeError")
    assert _errors("(VllmWorker rank=0 pid=403) ERROR 05-30 07:49:21 [multiproc_executor.py:527] "
                   "torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 3.50 GiB.")[0][:2] == (
        "cuda_oom", "torch.OutOfMemoryError")


def test_a_single_throughput_reading_is_no_change_in_the_postmortem(tmp_path):
    from spec_debug.session.postmortem import render_postmortem
    m = _session()
    m.prompt("EAGLE-3 made serving slower on gpu01.")
    _, seq = m.bash(f"ssh root@{GPU} 'python -m sglang.bench_serving --backend sglang --num-prompts 64'",
                    "Output token throughput (tok/s):         54.80\nAccept length:                           1.82")
    md = render_postmortem(_analyze(tmp_path, m), "md")
    # before: "Throughput went from 54.8 tok/s [msg N] to 54.8 tok/s [msg N]"
    assert f"Throughput was measured once: 54.8 tok/s [[msg {seq}]](#msg-{seq})" in md
    assert "Throughput went from" not in md


def test_a_crash_loop_is_not_told_to_wait_on_a_condition(tmp_path):
    from spec_debug.session.postmortem import postmortem_view
    m = _session()
    m.prompt("The standalone drafter test crashes on gpu01.")
    run = f"ssh root@{GPU} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'"
    crash = ("Traceback (most recent call last):\n  File \"/tmp/test_drafter_standalone.py\", line 79, in load_and_test\n"
             "    q = F.linear(attn_input, w[\"midlayer.self_attn.q_proj.weight\"])\n        ^^^^^^^^^^^^^\n"
             "UnboundLocalError: cannot access local variable 'attn_input' where it is not associated with a value\n")
    first = [m.bash(run, crash, exit_code=1)[0] for _ in range(3)][0]
    health = f"ssh root@{GPU} 'curl -sf http://localhost:30000/health'"
    refused = "curl: (7) Failed to connect to localhost port 30000 after 0 ms: Connection refused"
    polled = [m.bash(health, refused, exit_code=7)[0] for _ in range(3)][0]
    items = {item["source"]: item["action"] for item in postmortem_view(_analyze(tmp_path, m))["action_items"]}
    # before: "Wait on a condition instead of retrying" for both
    assert items[f"loop [msg {first}]"] == (
        f"Read the error before re-running `ssh root@{GPU} '~/ml-env/bin/python /tmp/test_drafter_standalone.py'`: "
        "it failed 3 times with UnboundLocalError")
    assert items[f"loop [msg {polled}]"].startswith(f"Wait on a condition instead of retrying `ssh root@{GPU} 'curl")


# `curl -s localhost:30000/get_server_info | jq .`: SGLang's ServerArgs as JSON plus
# "internal_states" (sglang python/sglang/srt/managers/scheduler.py, get_internal_state:
# "last_gen_throughput", and "avg_spec_accept_length" while speculating), shortened.
SERVER_INFO = """{
  "model_path": "/models/Kimi-K2.5",
  "tp_size": 8,
  "speculative_algorithm": "EAGLE3",
  "speculative_draft_model_path": "/models/kimi-k2.5-eagle3",
  "speculative_num_steps": 1,
  "speculative_eagle_topk": 1,
  "speculative_num_draft_tokens": 2,
  "internal_states": [
    {
      "attention_backend": "fa3",
      "last_gen_throughput": 54.81,
      "avg_spec_accept_length": 1.0234,
      "memory_usage": {"weight": 121.5, "kvcache": 12.3, "token_capacity": 180224}
    }
  ],
  "version": "0.5.4"
}"""


def test_the_running_servers_own_info_gives_its_readings_and_sd101(tmp_path):
    # before: no reading at all, and no SD101 (no launch command in the output)
    assert _readings(SERVER_INFO) == [("throughput", 54.81), ("accept_length", 1.023)]
    m = _session()
    m.prompt("EAGLE-3 on gpu01 is slow; the server was started by someone else.")
    _, seq = m.bash(f"ssh root@{GPU} 'curl -s localhost:30000/get_server_info | jq .'", SERVER_INFO)
    a = _analyze(tmp_path, m)
    assert [(f.code, f.seq, f.host) for f in a.findings] == [("SD101", seq, GPU)]
    # three draft steps: nothing to report
    from spec_debug.session.spec_facts import launch_observations
    assert launch_observations(SERVER_INFO.replace('"speculative_num_steps": 1', '"speculative_num_steps": 3')) == []


# `curl -s localhost:8000/metrics | grep spec_decode` on a vLLM V1 server (Prometheus text
# format; counter names from vllm/v1/spec_decode/metrics.py, SpecDecodingProm).
VLLM_SPEC_COUNTERS = """# HELP vllm:spec_decode_num_drafts_total Number of spec decoding drafts.
# TYPE vllm:spec_decode_num_drafts_total counter
vllm:spec_decode_num_drafts_total{engine="0",model_name="Qwen/Qwen3-8B"} 3432.0
# HELP vllm:spec_decode_num_draft_tokens_total Number of draft tokens.
# TYPE vllm:spec_decode_num_draft_tokens_total counter
vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="Qwen/Qwen3-8B"} 10296.0
# HELP vllm:spec_decode_num_accepted_tokens_total Number of accepted tokens.
# TYPE vllm:spec_decode_num_accepted_tokens_total counter
vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="Qwen/Qwen3-8B"} 7027.0
vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="Qwen/Qwen3-8B",position="0"} 3059.0
"""


def test_vllm_spec_decode_counters_give_acceptance():
    # before: nothing
    assert _readings(VLLM_SPEC_COUNTERS) == [("accept_length", 3.047), ("accept_rate", 68.25)]
    assert _readings(VLLM_SPEC_COUNTERS.replace("3432.0", "0.0")) == []  # nothing drafted yet


def test_acceptance_rates_written_with_the_percentage_first_or_about():
    # before: nothing for either
    assert _readings("With 3 steps we see a 62% acceptance rate, up from 41%.") == [("accept_rate", 62.0)]
    assert _readings("acceptance rate ~62%") == [("accept_rate", 62.0)]
    assert _readings("The acceptance rate is low.") == []


def test_the_first_error_of_an_exception_group_is_its_sub_exception(tmp_path):
    from spec_debug.session.postmortem import postmortem_view
    # CPython 3.11 Lib/traceback.py prints a TaskGroup failure so (a health probe of the server)
    group = (
        "  + Exception Group Traceback (most recent call last):\n"
        '  |   File "/root/probe.py", line 14, in <module>\n'
        "  |     asyncio.run(main())\n"
        '  |   File "/usr/lib/python3.11/asyncio/taskgroups.py", line 147, in __aexit__\n'
        "  |     raise me from None\n"
        "  | ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)\n"
        "  +-+---------------- 1 ----------------\n"
        "    | Traceback (most recent call last):\n"
        '    |   File "/root/probe.py", line 8, in probe\n'
        "    |     raise ConnectionRefusedError(111, \"Connect call failed ('10.1.230.174', 30000)\")\n"
        "    | ConnectionRefusedError: [Errno 111] Connect call failed ('10.1.230.174', 30000)\n"
        "    +------------------------------------\n")
    m = _session()
    m.prompt("Is the SGLang server on gpu01 up?")
    _, seq = m.bash("python3 /root/probe.py", group, exit_code=1)
    detection = postmortem_view(_analyze(tmp_path, m))["detection"]
    # before: "First error: ExceptionGroup: unhandled errors in a TaskGroup (1 sub-exception)"
    assert detection[-1] == (f"First error: ConnectionRefusedError: [Errno 111] Connect call failed ('10.1.230.174', "
                             f"30000) [msg {seq}] (main).")


def test_a_search_that_finds_nothing_is_no_error(tmp_path):
    m = _session()
    m.prompt("Is the SGLang server on gpu01 running?")
    # Claude Code reports each as is_error with "Exit code 1" (grep(1): 1 = no line selected)
    _, ps = m.bash(f"ssh root@{GPU} 'ps aux | grep -v grep | grep sglang.launch_server'", "", exit_code=1)
    m.bash(f"ssh root@{GPU} 'grep -n \"CUDA error\" /root/sglang_server.log'", "", exit_code=1)
    m.bash(f"ssh root@{GPU} 'test -f /models/kimi-k2.5-eagle3/d2t.npy'", "", exit_code=1)
    _, missing = m.bash(f"ssh root@{GPU} 'grep -n x /root/missing.log'",
                        "grep: /root/missing.log: No such file or directory", exit_code=2)
    a = _analyze(tmp_path, m)
    # before: four errors ("exit code 1" three times), a failing-call count of 4
    assert [(e.seq, e.kind) for e in a.errors] == [(missing, "exit_code")]
    assert [(c.exit_code, c.is_error) for c in a.commands] == [(1, False), (1, False), (1, False), (2, True)]


def test_hypotheses_in_other_usual_wordings():
    from spec_debug.session.reasoning import hypotheses
    # before: none of these was a hypothesis
    for text in ("My guess is that the draft was trained on different layers.",
                 "This suggests the served hidden states are shifted by one layer.",
                 "The slowdown is probably caused by the draft running every step.",
                 "The most likely explanation is a d2t offset bug."):
        assert hypotheses(text) == [text]
    assert hypotheses("I will probably restart the server.") == []


def test_what_an_agent_rules_out_about_d2t_and_norm_flags_is_no_finding():
    from spec_debug.session.spec_facts import text_observations

    def codes(text):
        return [o.code for o in text_observations(text)]
    # before: SD301, SD301, SD302, SD701, SD701 (each an error-severity finding in the postmortem)
    assert codes("d2t is not missing; it is in model.safetensors.") == []
    assert codes("There is no d2t problem here: the vocab is shared.") == []
    assert codes("d2t is an offset table, not absolute ids.") == []
    assert codes("SGLang 0.5 does not ignore norm_before_residual anymore.") == []
    assert codes("norm_before_residual is no longer ignored since 0.5.2.") == []
    # what they do say still counts
    assert codes("The checkpoint has no d2t, so draft ids are used as target ids.") == ["SD301"]
    assert codes("the d2t tensor was not found in model.safetensors") == ["SD301"]
    assert codes("d2t holds absolute target ids instead of offsets") == ["SD302"]
    assert codes("norm_before_residual is not read by SGLang 0.4.6") == ["SD701"]


def test_a_prompt_after_a_system_reminder_block_opens_the_first_phase(tmp_path):
    m = _session()
    env = m._env("user")  # Claude Code CLI 2.x puts reminders in the prompt's own message, first
    env["message"] = {"role": "user", "content": [
        {"type": "text", "text": "<system-reminder>\nAs you answer the user's questions, you can use the following "
                                 "context:\n# claudeMd\n</system-reminder>"},
        {"type": "text", "text": "EAGLE-3 made serving slower on gpu01. Please find out why."}]}
    m._add(env)
    m.bash(f"ssh root@{GPU} nvidia-smi", "NVIDIA H200")
    a = _analyze(tmp_path, m)
    # before: a one-block "Conversation" phase [msg 0]…[msg 0] first, overlapping the real one
    assert [(s.start_seq, s.end_seq, s.title) for s in a.segments] == [
        (0, 2, f"EAGLE-3 made serving slower on gpu01. — Checking the GPUs on {GPU}")]


def test_an_accept_rate_read_as_a_ratio_then_a_percentage_is_one_unit_in_the_impact_table(tmp_path):
    from spec_debug.session.postmortem import postmortem_view
    m = _session()
    m.prompt("EAGLE-3 accepts too little on gpu01.")
    _, first = m.bash(f"ssh root@{GPU} 'tail -n 1 /root/sglang_server.log'",
                      "[2026-03-02 08:10:00 TP0] Decode batch, #running-req: 1, #token: 900, token usage: 0.01, "
                      "accept len: 1.02, accept rate: 0.51, cuda graph: True, gen throughput (token/s): 54.80, "
                      "#queue-req: 0")
    # (at the log's one request: acceptance read at another load is no before and after)
    _, last = m.bash(f"ssh root@{GPU} 'vllm bench serve --model /models/Kimi-K2.5 --num-prompts 64 --max-concurrency 1'",
                     "Acceptance rate (%):                     68.25\nAcceptance length:                       3.73")
    row = postmortem_view(_analyze(tmp_path, m))["impact"]["accept_rate"]
    # before: "0.51 ratio" then "68.25 ratio"
    assert (row["before"], row["after"], row["unit"]) == (51.0, 68.25, "%")


def test_a_tabulate_psql_table_printed_by_a_benchmark_script():
    # python-tabulate's tablefmt="psql" (its README): "+" joints, a "|---+---|" rule under the header
    table = ("Results:\n+--------------------+---------+--------------+\n"
             "| config             |   tok/s |   accept len |\n"
             "|--------------------+---------+--------------|\n"
             "| baseline (no spec) |    90.1 |              |\n"
             "| eagle3 steps=3     |    96.8 |         3.41 |\n"
             "+--------------------+---------+--------------+")
    # before: nothing
    assert _readings(table) == [("baseline_throughput", 90.1), ("throughput", 96.8), ("accept_length", 3.41)]


def test_a_table_of_models_compares_each_with_its_own_baseline(tmp_path):
    table = ("| Model | EAGLE-3 tok/s | Baseline tok/s |\n|---|---|---|\n"
             "| Llama-3.1-70B | 45.2 | 30.1 |\n| Llama-3.1-8B | 140.3 | 90.4 |\n")
    assert _readings(table) == [("baseline_throughput", 30.1), ("throughput", 45.2),
                                ("baseline_throughput", 90.4), ("throughput", 140.3)]
    m = _session()
    m.prompt("Here is where EAGLE-3 stands:\n" + table)
    # moving every baseline of the text first (as for a sentence) compared 45.2 with 8B's 90.4: a false SD501
    assert [f.code for f in _analyze(tmp_path, m).findings] == []


def test_the_same_layers_one_index_apart_are_the_plus_one_convention(tmp_path):
    m = _session()
    m.prompt("Check which hidden states the draft gets on gpu01.")
    m.say("Training took torch.cat([hidden_states[3], hidden_states[31], hidden_states[59]], dim=-1) "
          "from the HF forward.")
    m.say("SGLang captures cat([layer2, layer30, layer58]).")
    # before: SD201 (and any two different orders were one)
    assert [f.code for f in _analyze(tmp_path, m).findings] == ["SD202"]


def test_a_distilled_description_has_one_full_stop_after_the_prompt(tmp_path):
    from spec_debug.session.distill import distill_playbook
    m = _session()
    m.prompt("EAGLE-3 on gpu01 is slow.")
    m.bash(f"ssh root@{GPU} 'curl -s localhost:30000/get_server_info | jq .'", SERVER_INFO)
    # before: "...: EAGLE-3 on gpu01 is slow.. Run against the host ..."
    assert distill_playbook(_analyze(tmp_path, m))["description"].endswith(
        f": EAGLE-3 on gpu01 is slow. Run against the host the session used, e.g. --host root@{GPU}.")


def test_a_speedup_below_one_is_sd501(tmp_path):
    # before: no reading, and no SD501, for any of these
    assert _readings("EAGLE-3 gives a 0.61x speedup here.") == [("speedup", 0.61)]
    assert _readings("The draft makes decoding 1.3x slower.") == [("speedup", 0.769)]
    assert _readings("With the fixed layers: speedup of 1.44x.") == [("speedup", 1.44)]
    assert _readings("On 8x H200 it uses 2x the memory.") == []  # factors of something else
    m = _session()
    m.prompt("EAGLE-3 on Qwen3.5-4B made decoding 1.3x slower on gpu01.")
    [sd501] = [f for f in _analyze(tmp_path, m).findings if f.code == "SD501"]
    assert sd501.evidence[0].startswith("[msg 0] 0.769x speedup: slower than without speculation")


def test_speedups_are_read_in_prose_not_in_tool_output():
    from spec_debug.session.metrics import scan_metrics
    text = "EAGLE-3 gives a 0.61x speedup here."
    assert [(m.name, m.value) for m in scan_metrics(text, True)] == [("speedup", 0.61)]
    assert scan_metrics(text) == []  # a tool's output: the scan is spared


def test_a_log_read_beside_a_source_listing_keeps_its_errors(tmp_path):
    m = _session()
    m.prompt("The SGLang server on gpu01 died.")
    _, seq = m.bash(f"ssh root@{GPU} 'tail -n 1 /root/sglang_server.log; ls /sgl/python/sglang/srt/models/*.py | head -1'",
                    "[2026-03-02 08:10:00 TP0] RuntimeError: CUDA error: an illegal memory access was encountered\n"
                    "/sgl/python/sglang/srt/models/llama_eagle3.py")
    # the line names a .py file, but it is no source listing: the log's error stays
    assert [(e.seq, e.kind) for e in _analyze(tmp_path, m).errors] == [(seq, "cuda_error")]


def test_a_command_the_person_stopped_is_no_failure(tmp_path):
    from spec_debug.session.postmortem import postmortem_view
    m = _session()
    m.prompt("Tail the server log on gpu01.")
    m.assistant({"type": "tool_use", "id": "toolu_tail", "name": "Bash",
                 "input": {"command": f"ssh root@{GPU} 'tail -f /root/sglang_server.log'"}})
    env = m._env("user")  # what Claude Code records when the person presses Esc (sniffly: "User Interruption")
    env["message"] = {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_tail",
                                                   "content": "[Request interrupted by user for tool use]",
                                                   "is_error": True}]}
    m._add(env)
    a = _analyze(tmp_path, m)
    # before: a tool_error "error", the call failed and the trunk agent "failed"
    assert (a.errors, a.stats["interrupts"], a.agents[0]["status"]) == ([], 1, "completed")
    assert "A command was stopped by hand 1 time [msg 1] while it ran." in postmortem_view(a)["went_wrong"]
