"""A Ray task's remote exception is the error of the traceback that re-raises it.

Ray prints "ray.exceptions.RayTaskError(ValueError): ray::HiddenStatesGenerator.generate() (pid=...,
ip=...)" then the remote frames and the remote exception's own line, inside the caller's
traceback (ray python/ray/exceptions.py, RayTaskError; as posted in verl and vLLM issues). The
"(ValueError)" kept the line from reading as an exception line, and the whole traceback read as
"traceback without an exception line (truncated output)" at ray's worker.py.
"""

from spec_debug.session.failures import extract_errors

TASK = """Traceback (most recent call last):
  File "/workspace/SpecForge/scripts/prepare_hidden_states.py", line 210, in main
    results = ray.get(futures)
  File "/usr/local/lib/python3.11/site-packages/ray/_private/worker.py", line 2772, in get
    raise value.as_instanceof_cause()
ray.exceptions.RayTaskError(ValueError): ray::HiddenStatesGenerator.generate() (pid=5521, ip=10.0.0.12, actor_id=0a1b2c)
  File "/workspace/SpecForge/specforge/data/preprocessing.py", line 412, in generate
    raise ValueError(f"aux_hidden_state_layer_ids {ids} out of range for {n} layers")
ValueError: aux_hidden_state_layer_ids [1, 17, 33] out of range for 32 layers
"""


def _first(text):
    e = extract_errors(text, exit_code=1)[0]
    return e.kind, e.exception, e.message, e.file, e.line


def test_the_remote_exception_at_its_innermost_frame():
    assert _first(TASK) == ("traceback", "ValueError", "aux_hidden_state_layer_ids [1, 17, 33] out of range for 32 layers",
                            "/workspace/SpecForge/specforge/data/preprocessing.py", 412)


def test_behind_vllms_log_prefix():
    prefix = "ERROR 05-19 09:49:02 [core.py:398] "
    text = "".join(prefix + line + "\n" for line in TASK.splitlines())
    assert _first(text)[1:] == _first(TASK)[1:]


def test_an_actor_whose_constructor_raised():
    text = """Traceback (most recent call last):
  File "/workspace/verl/main.py", line 120, in _initialize_components
    ray.get(param_synchronizer.sync_weights.remote(version=1))
ray.exceptions.ActorDiedError: The actor died because of an error raised in its creation task, ray::ParameterSynchronizer.__init__() (pid=825287, ip=172.16.0.86)
  File "/home/u/verl/recipe/param_sync.py", line 56, in __init__
    self._init_engine()
  File "/home/u/verl/recipe/param_sync.py", line 83, in _init_engine
    raise RuntimeError("no checkpoint engine for this backend")
RuntimeError: no checkpoint engine for this backend
"""
    assert _first(text) == ("traceback", "RuntimeError", "no checkpoint engine for this backend",
                            "/home/u/verl/recipe/param_sync.py", 83)


def test_the_remote_frames_cut_off():
    text = "\n".join(TASK.splitlines()[:6]) + "\n"
    kind, exception, message, file, line = _first(text)
    assert (kind, exception) == ("traceback", "ray.exceptions.RayTaskError(ValueError)")
    assert message.startswith("ray::HiddenStatesGenerator.generate()")
    assert (file, line) == ("/usr/local/lib/python3.11/site-packages/ray/_private/worker.py", 2772)


def test_a_plain_actor_death_stays():
    text = """Traceback (most recent call last):
  File "/x/ray_utils.py", line 321, in _wait_until_pg_ready
    ray.get(refs)
ray.exceptions.ActorDiedError: The actor died unexpectedly before finishing this task.
"""
    assert _first(text)[1:3] == ("ray.exceptions.ActorDiedError", "The actor died unexpectedly before finishing this task.")
