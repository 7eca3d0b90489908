"""A benchmark under ``timeout`` with a log read after it: ``timeout 5m python bench.py || tail -50
log``. Before, the ``tail`` (or ``cat``, ``grep PATTERN FILE``) after ``||`` / ``;`` / ``&&`` was
read as a command that may run for ever, so the step got no time limit from the benchmark's own
``timeout`` at all. Now a reader given a file returns at once, and the step is bounded by the
benchmark's timeout; ``tail -f log`` and a ``grep`` with no file (reading its input) still leave
the line unbounded."""

from spec_debug.session.timeout_limit import timeout_limit


def test_tail_after_or_is_bounded_by_the_benchmark_timeout():
    assert timeout_limit("timeout 5m python bench.py || tail -50 log") == 300


def test_cat_and_grep_of_a_file_return_at_once():
    assert timeout_limit("timeout 5m python bench.py || cat server.log") == 300
    assert timeout_limit("timeout 600 python -m sglang.bench_serving --num-prompts 80; "
                         "grep 'accept len' /tmp/server.log") == 600
    assert timeout_limit("timeout 90 python bench.py && tail -n 20 out.log && head -5 out.log") == 90


def test_readers_that_follow_or_read_input_stay_unbounded():
    assert timeout_limit("timeout 5m python bench.py || tail -f server.log") is None
    assert timeout_limit("timeout 5m python bench.py; tail -n 50") is None
    assert timeout_limit("timeout 5m python bench.py || grep accept") is None
    assert timeout_limit("timeout 60 python b.py; python c.py") is None
