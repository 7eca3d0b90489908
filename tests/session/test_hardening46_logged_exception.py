"""An exception vLLM logged on an ERROR line of its own names its type.

A failed `vllm serve` whose log tail holds only the API server's "(APIServer pid=2100) ERROR 10-14
09:20:05 [serving_chat.py:1145] vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an
issue. See stack trace (above) for the root cause." (the traceback above it scrolled out) gave an
exit_code error with the whole log line and no exception, though the line names it."""

from spec_debug.session.failures import extract_errors

DEAD = ("(APIServer pid=2100) INFO 10-14 09:20:04 [loggers.py:123] Engine 000: Avg prompt throughput: 0.0 tokens/s, "
        "Avg generation throughput: 310.2 tokens/s, Running: 8 reqs, Waiting: 0 reqs, GPU KV cache usage: 12.3%, "
        "Prefix cache hit rate: 0.0%\n"
        "(APIServer pid=2100) ERROR 10-14 09:20:05 [serving_chat.py:1145] vllm.v1.engine.exceptions.EngineDeadError: "
        "EngineCore encountered an issue. See stack trace (above) for the root cause.\n"
        "(APIServer pid=2100) INFO:     Shutting down\n")


def test_the_logged_exception_is_the_error_of_a_failed_run() -> None:
    [error] = extract_errors(DEAD, exit_code=1)
    assert (error.kind, error.exception, error.message) == (
        "exception", "vllm.v1.engine.exceptions.EngineDeadError",
        "EngineCore encountered an issue. See stack trace (above) for the root cause.")


def test_after_a_clean_exit_it_is_no_error_as_before() -> None:
    # a log read with exit 0 (tail) states no failure of the tail; the engine's death is judged
    # by the lines that say so (a traceback, the sigquit of SGLang's launcher)
    assert extract_errors(DEAD, exit_code=0) == []


def test_an_older_vllm_line_without_its_bracket() -> None:
    text = ("ERROR 08-01 10:00:00 async_llm_engine.py:61] Engine background task failed\n"
            "ERROR 08-01 10:00:00 async_llm_engine.py:63] vllm.engine.async_llm_engine.AsyncEngineDeadError: "
            "Task finished unexpectedly.\n")
    [error] = extract_errors(text, exit_code=1)
    assert (error.exception, error.message) == ("vllm.engine.async_llm_engine.AsyncEngineDeadError",
                                                 "Task finished unexpectedly.")
