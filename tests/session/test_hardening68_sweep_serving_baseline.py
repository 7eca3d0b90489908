"""bench_speculative.py's steps=0 run: its bench_serving blocks are the baseline's readings.

SGLang's EAGLE tuning sweep (sgl-project/sglang scripts/playground/bench_speculative.py) prints
"Start i=0: batch_size=1, steps=0, topk=0, num_draft_tokens=0", launches a server without
speculation for steps 0 ("a special case for non-speculative decoding"), runs sglang.bench_serving's
benchmark() twice (a warmup, then the measure: each prints its "Serving Benchmark Result" block)
and prints "Finish i=0: ...". The steps=0 run's blocks were read as drafting `throughput`s, beside
the drafting runs' ones: a drafter slower than no drafting raised nothing.
"""

from __future__ import annotations

from spec_debug.session.metrics import scan_metrics


def _line(label: str, value) -> str:
    return "{:<40} {:<10}".format(label, value if isinstance(value, (int, str)) else f"{value:.2f}")


def _block(concurrency: int, output_tput: float, accept_length: float) -> str:
    return "\n".join([
        "", "{s:{c}^{n}}".format(s=" Serving Benchmark Result ", n=50, c="="),
        _line("Backend:", "sglang"), _line("Traffic request rate:", "inf"),
        _line("Max request concurrency:", concurrency), _line("Successful requests:", 16),
        _line("Benchmark duration (s):", 41.27), _line("Total input tokens:", 0),
        _line("Total generated tokens:", 8192), _line("Request throughput (req/s):", 0.39),
        _line("Input token throughput (tok/s):", 0.0), _line("Output token throughput (tok/s):", output_tput),
        _line("Total token throughput (tok/s):", output_tput), _line("Accept length:", accept_length),
        "=" * 50, ""])


def _run(i: int, bs: int, steps: int, topk: int, draft: int, tput: float, acc: float, speed: float) -> str:
    row = f"batch_size={bs}, steps={steps}, topk={topk}, num_draft_tokens={draft}"
    return (f"Start i={i}: {row}\n"
            "[2026-12-06 20:10:01] server_args=ServerArgs(model_path='meta-llama/Llama-3.1-8B-Instruct')\n"
            + _block(bs, tput * 0.9, acc) + _block(bs, tput, acc)
            + f"Finish i={i}: {row}, speed={speed:.2f} token/s, step_time=10.52 ms\n")


SWEEP = _run(0, 1, 0, 0, 0, 120.4, 1.0, 118.5) + _run(1, 1, 3, 1, 4, 95.2, 2.1, 93.0)


def _readings(text: str, prose: bool = False) -> list[tuple[str, float]]:
    return [(m.name, m.value) for m in scan_metrics(text, prose=prose)
            if m.name in ("throughput", "baseline_throughput", "accept_length")]


def test_steps0_blocks_are_the_baseline():
    assert sorted(_readings(SWEEP)) == sorted([
        ("baseline_throughput", 108.36), ("baseline_throughput", 120.4), ("baseline_throughput", 118.5),
        ("throughput", 85.68), ("throughput", 95.2), ("accept_length", 2.1), ("accept_length", 2.1),
        ("throughput", 93.0)])


def test_prose_reading_too():
    assert sorted(_readings(SWEEP, True)) == sorted(_readings(SWEEP))


def test_drafting_runs_alone_keep_their_names():
    text = _run(1, 1, 3, 1, 4, 95.2, 2.1, 93.0) + _run(2, 1, 5, 1, 6, 101.0, 2.6, 99.1)
    assert sorted(_readings(text)) == sorted([
        ("throughput", 85.68), ("throughput", 95.2), ("accept_length", 2.1), ("accept_length", 2.1),
        ("throughput", 93.0), ("throughput", 90.9), ("throughput", 101.0), ("accept_length", 2.6),
        ("accept_length", 2.6), ("throughput", 99.1)])


def test_baseline_run_keeps_its_concurrency_row():
    text = _run(0, 4, 0, 0, 0, 300.0, 1.0, 80.0)
    got = [(m.name, m.value, m.context) for m in scan_metrics(text) if m.name == "baseline_throughput"]
    assert got == [("baseline_throughput", 270.0, "bench_serving: Output token throughput (tok/s), concurrency 4"),
                   ("baseline_throughput", 300.0, "bench_serving: Output token throughput (tok/s), concurrency 4")]


def _session(tmp_path, output: str):
    import json

    sid = "7e2a4c10-9b3d-4f61-8a5e-2c1d0b9f6e33"

    def entry(uuid: str, role: str, content: list, second: int) -> dict:
        return {"type": role, "uuid": uuid, "parentUuid": None, "sessionId": sid,
                "timestamp": f"2026-11-02T10:00:{second:02d}Z", "cwd": "/work", "isSidechain": False,
                "userType": "external", "version": "2.1.20",
                "message": {"id": f"msg_{uuid}", "role": role, "model": "claude-opus-4-5", "content": content}}

    lines = [entry("u0", "user", [{"type": "text", "text": "Tune EAGLE on gpu01."}], 0),
             entry("a2", "assistant", [{"type": "tool_use", "id": "toolu_2", "name": "Bash",
                                        "input": {"command": "ssh gpu01 'bash /work/sweep.sh'"}}], 4),
             entry("u2", "user", [{"type": "tool_result", "tool_use_id": "toolu_2", "content": output,
                                   "is_error": False}], 5)]
    path = tmp_path / f"{sid}.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def test_a_drafter_slower_than_the_steps0_run_is_found(tmp_path):
    from spec_debug.session import analyze_path

    a = analyze_path(_session(tmp_path, SWEEP))
    assert "SD501" in [f.code for f in a.findings]
    assert sorted(m.value for m in a.metrics if m.name == "baseline_throughput") == [108.36, 118.5, 120.4]
