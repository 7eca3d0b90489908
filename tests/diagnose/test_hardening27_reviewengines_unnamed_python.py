"""engine step: the interpreter named when the probe's Python does not know its own path
(review of round 27). sys.executable is "" or None then (Python docs, sys.executable); the
round's SD004 line said 'both installed in None', as did 'the only engine installed in None'."""

from __future__ import annotations

from spec_debug.diagnose.steps import engine_step

BOTH = {"sglang": {"version": "0.5.5"}, "vllm": {"version": "0.11.0"}}


def test_an_interpreter_without_a_path_is_not_called_none():
    for executable in (None, ""):
        engine = engine_step.parse({"args": {}, "python_executable": executable, "packages": BOTH})["engine"]
        assert engine["installed_in"] == "the probe's Python"
        assert "None" not in engine_step._unnamed_line(engine)
        alone = engine_step.parse({"args": {}, "python_executable": executable,
                                   "packages": {"vllm": {"version": "0.11.0"}}})["engine"]
        assert alone["source"] == "the only engine installed in the probe's Python"
