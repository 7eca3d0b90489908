"""What `spec-debug analyze` reads from real SGLang and vLLM output (server logs, benchmark
summaries, tracebacks) copied from GitHub issues about EAGLE-3 and speculative decoding. Each
file under ``data_h7/`` names its source in ``data_h7/README.md``; each test names the wrong
reading it replaced."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path

from spec_debug.session import analyze_path
from spec_debug.session.failures import extract_errors
from tests.session.incident_story import _Writer

DATA = Path(__file__).parent / "data_h7"
GPU = "10.1.230.174"
START = datetime(2026, 3, 2, 8, 0, tzinfo=timezone.utc)
SESSION = "7e1a0000-0000-4000-8000-00000000aa07"


def _log(name: str) -> str:
    return (DATA / name).read_text(encoding="utf-8")


def _analyze(tmp_path: Path, writer: _Writer):
    path = tmp_path / f"{SESSION}.jsonl"
    path.write_text("\n".join(writer.lines) + "\n", encoding="utf-8")
    return analyze_path(path)


def _session(prompt: str) -> _Writer:
    w = _Writer(SESSION, None, START)
    w.prompt(prompt)
    return w


def _metrics(analysis, source: str = "output") -> dict[str, list[float]]:
    out: dict[str, list[float]] = {}
    for m in analysis.metrics:
        if m.source == source:
            out.setdefault(m.name, []).append(m.value)
    return out


def _numbers(text: str, label: str) -> list[float]:
    """Every number printed right after ``label`` (how the engine wrote it, read back)."""
    return [float(v) for v in re.findall(re.escape(label) + r"\s*([\d.]+)", text)]


# -- metrics -------------------------------------------------------------------------------

def test_sglang_decode_line_after_an_idle_spell_is_no_throughput_reading(tmp_path):
    # before: throughput 139.79 tok/s, the mean with the idle interval's "gen throughput
    # (token/s): 0.39" (SGLang divides by the time since the previous line, idle included)
    log = _log("sglang_11948_decode_after_idle.log")
    tputs = _numbers(log, "gen throughput (token/s):")
    lens = _numbers(log, "accept len:")
    m = _session("EAGLE-3 speedup in SGLang is far below the paper's; find out why.")
    m.bash(f"ssh root@{GPU} 'tail -n 6 /tmp/sglang_server.log'", log)
    got = _metrics(_analyze(tmp_path, m))
    busy = [t for t in tputs if t > 1]
    assert len(busy) == len(tputs) - 1
    assert got["throughput"] == [round(sum(busy) / len(busy), 2)]
    # the accept statistics of that interval are real: every line counts
    assert got["accept_length"] == [round(sum(lens) / len(lens), 3)]


def test_idle_vllm_stat_lines_are_no_zero_throughput_and_no_sd501(tmp_path):
    # before: two "throughput 0.0 tok/s" readings from the idle lines' prose, and SD501
    # "0 tok/s measured vs 90 tok/s baseline"
    m = _session("vLLM with EAGLE hangs on tp=8; without speculation it gave a 90 tok/s baseline.")
    m.bash(f"ssh root@{GPU} 'tail -n 3 /var/log/vllm.log'", _log("vllm_2734_idle_stats_watchdog.log"))
    a = _analyze(tmp_path, m)
    assert "throughput" not in _metrics(a)
    assert [f.code for f in a.findings if f.code == "SD501"] == []
    assert [(e.kind, "Watchdog caught collective operation timeout" in e.message) for e in a.errors] == [("nccl", True)]


def test_new_sglang_decode_line_and_bench_summaries_are_read(tmp_path):
    # unchanged readings, kept by this test: the 2026 "#full token" Decode batch line, SGLang
    # bench_serving's "Accept length:" and the EAGLE mtbench summary of two runs
    decode = _log("sglang_21723_full_token_decode.log")
    bench = _log("sglang_17098_bench_serving.txt")
    mtbench = _log("sglang_4247_mtbench.txt")
    m = _session("EAGLE-3 on Qwen3-8B: is the draft accepted as often as it should be?")
    m.bash(f"ssh root@{GPU} 'grep -a \"Decode batch\" /tmp/server.log | tail -1'", decode)
    m.bash("python -m sglang.bench_serving --backend sglang --num-prompts 50 --max-concurrency 8", bench)
    m.bash("python3 bench_sglang_eagle.py --num-questions 80", mtbench)
    got = _metrics(_analyze(tmp_path, m))
    assert got["throughput"] == (_numbers(decode, "gen throughput (token/s):")
                                 + _numbers(bench, "Output token throughput (tok/s):")
                                 + _numbers(mtbench, "Throughput:"))
    assert got["accept_length"] == (_numbers(decode, "accept len:") + _numbers(bench, "Accept length:")
                                    + _numbers(mtbench, "Acceptance length:"))


# -- errors ---------------------------------------------------------------------------------

def test_vllm_oom_above_a_cut_traceback_is_the_error(tmp_path):
    # before: only "traceback without an exception line (truncated output)"; the worker's
    # torch.OutOfMemoryError line above it was never read
    m = _session("vLLM with MTP dies under load on the 3090s.")
    m.bash(f"ssh root@{GPU} 'docker logs vllm 2>&1 | tail -n 12'", _log("vllm_club3090_138_worker_oom.log"), exit_code=1)
    errors = _analyze(tmp_path, m).errors
    assert [(e.kind, e.exception) for e in errors] == [("cuda_oom", "torch.OutOfMemoryError"), ("traceback", None)]
    assert "Tried to allocate 136.00 MiB" in errors[0].message
    assert (errors[1].file.endswith("vllm/v1/executor/multiproc_executor.py"), errors[1].line) == (True, 957)


def test_cuda_kernel_assertion_before_a_cut_traceback_is_a_cuda_error():
    # before: only the cut traceback; the device-side assertion (an index past the vocab)
    # that killed the EAGLE-3 scheduler was not named
    errors = extract_errors(_log("sglang_7139_kernel_assert.log"), 0)
    assert [e.kind for e in errors] == ["cuda_error", "traceback"]
    assert "Assertion `srcIndex < srcSelectDimSize` failed" in errors[0].message


def test_kernel_assertion_alone_after_a_clean_exit_is_reported():
    # the assertion line starts like a grep hit ("Indexing.cu:1500: ") but is none
    line = _log("sglang_7139_kernel_assert.log").splitlines()[0]
    assert [e.kind for e in extract_errors(line, 0)] == ["cuda_error"]
    # a real grep hit in a .cu source stays quiet after a clean exit
    grep_hit = "Indexing.cu:1500:  CUDA_KERNEL_ASSERT(srcIndex < srcSelectDimSize);"
    assert extract_errors(grep_hit, 0) == []


def test_frames_with_json_escaped_quotes_keep_their_location():
    # before: file None, line None (the frame pattern wanted plain quotes)
    [error] = extract_errors(_log("sglang_15050_escaped_frames.log"), 1)
    assert (error.kind, error.file, error.line) == (
        "traceback", "/sgl-workspace/sglang/python/sglang/srt/managers/scheduler.py", 2063)


# -- commands -------------------------------------------------------------------------------

# vllm-project/vllm#33497 (the benchmark of a DeepSeek MTP server) and #16937 (EAGLE-3
# acceptance measured with vLLM's offline example); sgl-project/sglang#7927.
VLLM_BENCH_SERVE = ("vllm bench serve --dataset-name random --random-input-len 1000 --random-prefix-len 0 "
                    "--random-output-len 1000 --random-range-ratio 0 --base-url http://127.0.0.1:8000 "
                    "--model deepseek-ai/DeepSeek-V3.2 --num-prompts 128 --max-concurrency 8 --ignore-eos")
VLLM_EAGLE_EXAMPLE = ('VLLM_USE_V1=1 python examples/offline_inference/eagle.py --dataset="./data/mt_bench/question.jsonl" '
                      "--num_spec_tokens 7 --max_num_seqs 1 --num_prompts 80")
SGLANG_BENCH_SERVING = ("python3 -m sglang.bench_serving --backend sglang --dataset-name random --num-prompts 1280 "
                        "--random-input 2500 --random-output 300 --port 30009")


def test_vllm_bench_cli_and_acceptance_examples_are_benchmarks(tmp_path):
    # before: `vllm bench serve` was "other" and the EAGLE example "python", so a session's
    # benchmarking phase split around them
    m = _session("EAGLE-3 acceptance on vLLM looks low; measure it.")
    for command in (VLLM_BENCH_SERVE, VLLM_EAGLE_EXAMPLE, SGLANG_BENCH_SERVING):
        m.bash(f"ssh root@{GPU} '{command}'", "")
    a = _analyze(tmp_path, m)
    assert [c.category for c in a.commands] == ["benchmark"] * 3


def test_sigquit_beside_a_cut_traceback_says_the_server_died():
    # before: only the cut traceback; SGLang's "Received sigquit from a child process" (the
    # launcher killing the server) was not read
    errors = extract_errors(_log("sglang_5448_sigquit_cut_traceback.log"), 0)
    assert [(e.kind, e.exception) for e in errors] == [("signal", "SIGQUIT"), ("traceback", None)]
    assert errors[1].line == 599


# -- launch flags ---------------------------------------------------------------------------

# argparse takes a prefix of a flag: "--speculative-algo EAGLE --speculative-draft ..." is how
# sgl-project/sglang#2777 and the lmsys/DeepSeek-R1-NextN card launch; the draft here is the
# EAGLE-3 one of sgl-project/sglang#4247.
ABBREVIATED_LAUNCH = ("python3 -m sglang.launch_server --model meta-llama/Llama-3.1-8B-Instruct --speculative-algo EAGLE "
                      "--speculative-draft jamesliu1/sglang-EAGLE3-Llama-3.1-Instruct-8B --speculative-num-steps 5 "
                      "--speculative-eagle-topk 8 --speculative-num-draft-tokens 64")


def test_abbreviated_algorithm_flag_still_finds_eagle_for_an_eagle3_draft(tmp_path):
    # before: no SD103 (the pattern wanted the whole "--speculative-algorithm")
    m = _session("EAGLE-3 draft on Llama-3.1-8B accepts almost nothing in SGLang.")
    m.bash(f"ssh root@{GPU} 'nohup {ABBREVIATED_LAUNCH} > /tmp/server.log 2>&1 &'", "")
    assert "SD103" in [f.code for f in _analyze(tmp_path, m).findings]
    fixed = ABBREVIATED_LAUNCH.replace("--speculative-algo EAGLE ", "--speculative-algo EAGLE3 ")
    m = _session("EAGLE-3 draft on Llama-3.1-8B accepts almost nothing in SGLang.")
    m.bash(f"ssh root@{GPU} 'nohup {fixed} > /tmp/server.log 2>&1 &'", "")
    assert "SD103" not in [f.code for f in _analyze(tmp_path, m).findings]


def test_bench_one_batch_server_input_throughput_is_prefill(tmp_path):
    # before: three "throughput" readings, the first the prompt's 9392.46 tok/s (batch *
    # input_len / TTFT), which made a 97 tok/s decode look 100x faster than it was
    out = _log("sglang_bench_one_batch_server.txt")
    m = _session("EAGLE-3 decode on gpu01 is slower than the 100 tok/s baseline.")
    m.bash("python3 -m sglang.bench_one_batch_server --model None --base-url http://localhost:30000 "
           "--batch-size 1 --input-len 1024 --output-len 1024", out)
    got = _metrics(_analyze(tmp_path, m))
    assert got["throughput"] == _numbers(out, "output throughput:")
    assert got["prefill_throughput"] == _numbers(out, "input throughput:")
    assert got["last_gen_throughput"] == _numbers(out, "last generation throughput:")
