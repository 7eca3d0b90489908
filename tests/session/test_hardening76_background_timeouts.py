"""Two benchmarks under ``timeout`` started side by side with ``&`` (the spec run on one port, the
baseline on another) end when the longer does.

``timeout 300 python3 bench_spec.py & timeout 400 python3 bench_base.py`` runs both at once (bash(1),
Lists: a command ended by ``&`` runs asynchronously, the shell does not wait for it). Before, the
distilled step's limit was their sum, 700 s, as if one ran after the other; now it is 400 s. A
``wait`` after background jobs waits for the last of them, where it made the line unbounded; jobs
run one after the other (``;``, ``&&``) still add up."""

from spec_debug.session.timeout_limit import timeout_limit


def test_jobs_side_by_side_end_with_the_longer():
    assert timeout_limit("timeout 300 python3 bench_spec.py --port 30000 > spec.log & "
                         "timeout 400 python3 bench_base.py --port 30001 > base.log") == 400
    assert timeout_limit("timeout 500 python3 a.py & timeout 400 python3 b.py") == 500


def test_wait_waits_for_the_background_jobs():
    assert timeout_limit("timeout 30 python3 a.py & timeout 40 python3 b.py & wait") == 40
    assert timeout_limit("timeout 60 python3 a.py & wait $!") == 60


def test_what_runs_after_the_foreground_job_adds_up():
    # 10 s, then 30 s and 40 s at once, then 5 s after the 40 s one
    assert timeout_limit("timeout 10 nvidia-smi; timeout 30 python3 a.py & timeout 40 python3 b.py; "
                         "timeout 5 tail -n 5 a.log") == 55


def test_sequential_jobs_and_unbounded_ones_as_before():
    assert timeout_limit("timeout 30 python3 a.py; timeout 40 python3 b.py") == 70
    assert timeout_limit("timeout 30 python3 a.py && timeout 40 python3 b.py") == 70
    assert timeout_limit("timeout 30 python3 a.py & python3 b.py") is None
    assert timeout_limit("python3 -m sglang.launch_server & timeout 60 python3 bench.py") is None
