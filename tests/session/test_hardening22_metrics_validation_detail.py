"""A pydantic ValidationError carries the field and the reason, not only the count.

pydantic prints "1 validation error for SpeculatorModelConfig" on the exception's line, then the
field's path flush left and the reason indented with "[type=..., input_value=...]" after it
(pydantic-core's ValidationError display). The error was "1 validation error for
SpeculatorModelConfig": which field of the drafter's config was wrong, and why, was lost.
speculators' configs (speculators/config.py, model_validate) and vLLM's SpeculativeConfig are
pydantic models; the first traceback below is speculators 0.9.0's own, run on a config.json
whose speculative_tokens is "three".
"""

from spec_debug.session.failures import extract_errors

SPECULATORS = '''\
Traceback (most recent call last):
  File "<stdin>", line 5, in <module>
  File "/usr/lib/python3.11/site-packages/speculators/model.py", line 338, in from_pretrained
    config = cls.config_class.from_pretrained(
             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/speculators/config.py", line 242, in from_dict
    return cls.model_validate(dict_obj)
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  File "/usr/lib/python3.11/site-packages/pydantic/main.py", line 732, in model_validate
    return cls.__pydantic_validator__.validate_python(
           ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculatorModelConfig
eagle3.speculators_config.proposal_methods.0.greedy.speculative_tokens
  Input should be a valid integer, unable to parse string as an integer [type=int_parsing, input_value='three', input_type=str]
    For further information visit https://errors.pydantic.dev/2.13/v/int_parsing
'''

# vllm-project/vllm#20375: a model validator's error has no field path
VLLM = '''\
Traceback (most recent call last):
  File "/home/u/vllm/vllm/config.py", line 2543, in from_dict
    return cls(**dict_value)
  File "/home/u/.venv/lib/python3.12/site-packages/pydantic/_internal/_dataclasses.py", line 123, in __init__
    s.__pydantic_validator__.validate_python(ArgsKwargs(args, kwargs), self_instance=s)
pydantic_core._pydantic_core.ValidationError: 1 validation error for SpeculativeConfig
  Value error, num_speculative_tokens must be provided with speculative model unless the draft model config contains an n_predict parameter. [type=value_error, input_value=ArgsKwargs((), {'model': ...sable_log_stats': True}), input_type=ArgsKwargs]
'''


def test_the_field_and_the_reason_follow_the_count():
    [err] = extract_errors(SPECULATORS, exit_code=1)
    assert err.exception == "pydantic_core._pydantic_core.ValidationError"
    assert err.message == ("1 validation error for SpeculatorModelConfig | eagle3.speculators_config.proposal_methods.0."
                           "greedy.speculative_tokens: Input should be a valid integer, unable to parse string as an "
                           "integer")


def test_a_model_validators_reason_without_a_path():
    [err] = extract_errors(VLLM, exit_code=1)
    assert err.message.startswith("1 validation error for SpeculativeConfig | Value error, num_speculative_tokens must")
    assert "[type=" not in err.message and len(err.message) <= 300


def test_a_validation_error_cut_after_its_count_is_as_before():
    cut = SPECULATORS.split("eagle3.speculators_config")[0]
    [err] = extract_errors(cut, exit_code=1)
    assert err.message == "1 validation error for SpeculatorModelConfig"
