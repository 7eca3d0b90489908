"""A pydantic ValidationError's place is the frame that built the object, not pydantic's.

pydantic raises its ValidationError from the validator's call in its own code: pydantic/main.py's
__init__ (``self.__pydantic_validator__.validate_python(data, self_instance=self)``) or
pydantic/_internal/_dataclasses.py's __init__ for a pydantic dataclass, as vLLM's SpeculativeConfig
is since vllm-project/vllm#27156. That frame is the same line for every invalid input; the error's
file and line were it (".../pydantic/_internal/_dataclasses.py:123") where the frame a user needs
is the one that built the config (vLLM's arg_utils.py, a script's own line).
"""

from __future__ import annotations

from spec_debug.session.failures import extract_errors, parse_tracebacks

VLLM = "/usr/local/lib/python3.12/dist-packages/vllm/engine/arg_utils.py"
DATACLASS = "/usr/local/lib/python3.12/dist-packages/pydantic/_internal/_dataclasses.py"

SPEC_CONFIG = f"""Traceback (most recent call last):
  File "/usr/local/bin/vllm", line 10, in <module>
    sys.exit(main())
  File "{VLLM}", line 1391, in create_speculative_config
    return SpeculativeConfig(**self.speculative_config)
  File "{DATACLASS}", line 123, in __init__
    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)
pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig
  Value error, num_speculative_tokens must be > 0 [type=value_error, input_value=ArgsKwargs((), {{}}), input_type=ArgsKwargs]
    For further information visit https://errors.pydantic.dev/2.11/v/value_error
"""

# as posted in pathoplexus/pathoplexus#794 (Python 3.14, pydantic 2.12)
MODEL_INIT = """Traceback (most recent call last):
  File "/opt/conda/bin/prepro", line 10, in <module>
    sys.exit(cli_entry())
             ~~~~~~~~~^^
  File "/opt/conda/lib/python3.14/site-packages/loculus_preprocessing/__main__.py", line 12, in cli_entry
    config = get_config()
  File "/opt/conda/lib/python3.14/site-packages/loculus_preprocessing/config.py", line 177, in get_config
    config = Config(**yaml_config)
  File "/opt/conda/lib/python3.14/site-packages/pydantic/main.py", line 250, in __init__
    validated_self = self.__pydantic_validator__.validate_python(data, self_instance=self)
pydantic_core._pydantic_core.ValidationError: 3 validation errors for Config
processing_spec.displayName.args.orderOnDetailsPage.list[str]
  Input should be a valid list [type=list_type, input_value=180, input_type=int]
"""


def _where(output: str) -> list[tuple[str | None, str | None, int | None]]:
    return [(e.exception, e.file, e.line) for e in extract_errors(output, exit_code=1)]


def test_pydantic_dataclass_error_is_placed_at_vllm_frame():
    assert _where(SPEC_CONFIG) == [("pydantic_core._pydantic_core.ValidationError", VLLM, 1391)]


def test_model_init_error_is_placed_at_the_callers_frame():
    assert [(e.file, e.line) for e in parse_tracebacks(MODEL_INIT)] == [
        ("/opt/conda/lib/python3.14/site-packages/loculus_preprocessing/config.py", 177)]


def test_logger_prefixed_traceback_too():
    prefix = "(APIServer pid=812) ERROR 12-06 20:10:01 [api_server.py:1520] "
    output = "".join(prefix + line + "\n" for line in SPEC_CONFIG.splitlines())
    assert [(e.file, e.line) for e in parse_tracebacks(output)] == [(VLLM, 1391)]


def test_windows_paths():
    output = (SPEC_CONFIG.replace(VLLM, r"C:\venv\Lib\site-packages\vllm\engine\arg_utils.py")
              .replace(DATACLASS, r"C:\venv\Lib\site-packages\pydantic\_internal\_dataclasses.py"))
    assert [(e.file, e.line) for e in parse_tracebacks(output)] == [(r"C:\venv\Lib\site-packages\vllm\engine\arg_utils.py", 1391)]


def test_traceback_all_inside_pydantic_keeps_its_frame():
    output = (f'Traceback (most recent call last):\n  File "{DATACLASS}", line 123, in __init__\n'
              "    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)\n"
              "pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig\n")
    assert [(e.file, e.line) for e in parse_tracebacks(output)] == [(DATACLASS, 123)]


def test_other_tracebacks_keep_their_innermost_frame():
    output = ('Traceback (most recent call last):\n  File "/work/train.py", line 5, in <module>\n    main()\n'
              '  File "/usr/lib/python3/dist-packages/torch/nn/modules/module.py", line 1751, in _call_impl\n'
              "    return forward_call(*args, **kwargs)\nRuntimeError: shape mismatch\n")
    assert [(e.file, e.line) for e in parse_tracebacks(output)] == [
        ("/usr/lib/python3/dist-packages/torch/nn/modules/module.py", 1751)]


def test_a_package_only_named_like_pydantic_is_no_validator_frame():
    path = "/srv/app/pydantic_settings_ext/loader.py"
    output = (f'Traceback (most recent call last):\n  File "/srv/app/main.py", line 3, in <module>\n    load()\n'
              f'  File "{path}", line 40, in load\n    raise ValueError("bad")\nValueError: bad\n')
    assert [(e.file, e.line) for e in parse_tracebacks(output)] == [(path, 40)]
