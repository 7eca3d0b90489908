"""A template that pads a value to a memory's worth of characters.

`*` and `**` were bounded this session, but a padding builds the same: `'%0999999999d' % 1`,
`'x'.center(10**9)`, `| indent(10**9)`, `'{:>999999999}'.format(1)`, `lipsum(10**9)`. Each is
now refused naming its size, in a playbook (the step fails, the run goes on) and in a report
--template alike (one sandbox). The sizes are large enough to be refused but small enough to be
built without the bound, so the tests fail before the fix without exhausting the machine."""

from __future__ import annotations

import json

import pytest
from jinja2.exceptions import SecurityError

from spec_debug.sandbox import BoundedSandbox
from tests.conftest import run_cli

REFUSED = [
    ("{{ '%020000000d' % 1 }}", "'%' would make 20,000,000 characters"),
    ("{{ '%*d' % (20000000, 1) }}", "'%' would make 20,000,000 characters"),
    ("{{ '%(a)20000000s' % {'a': 1} }}", "'%' would make 20,000,000 characters"),
    ("{{ '%20000000s' | format('a') }}", "'| format' would make 20,000,000 characters"),
    ("{{ 'x'.center(20000000) }}", "'.center()' would make 20,000,000 characters"),
    ("{{ 'x'.ljust(width=20000000) }}", "'.ljust()' would make 20,000,000 characters"),
    ("{{ '7'.zfill(20000000) }}", "'.zfill()' would make 20,000,000 characters"),
    ("{{ 'a\tb'.expandtabs(20000000) }}", "'.expandtabs()' would make 20,000,000 characters"),
    ("{{ 'x' | center(20000000) }}", "'| center' would make 20,000,000 characters"),
    ("{{ 'x' | indent(20000000, true) }}", "'| indent' would make 20,000,000 characters"),
    ("{{ '{:>20000000}'.format(1) }}", "'.format()' would make 20,000,000 characters"),
    ("{{ '{:{w}}'.format(1, w=20000000) }}", "'.format()' would make 20,000,000 characters"),
    ("{{ '{a:20000000}'.format_map({'a': 1}) }}", "'.format_map()' would make 20,000,000 characters"),
    ("{{ lipsum(100000) }}", "'lipsum()' would make 100,000 paragraphs"),
]

ORDINARY = [
    ("{{ '%05d' % 42 }}", "00042"),
    ("{{ '%s-%s' % ('a', 'b') }}", "a-b"),
    ("{{ 7 % 3 }}", "1"),
    ("{{ '%d' % 30000000 }}", "30000000"),
    ("{{ 'x'.center(9, '*') }}", "****x****"),
    ("{{ 'ab' | center(6) }}|", "  ab  |"),
    ("{{ 'a\nb' | indent(4) }}", "a\n    b"),
    ("{{ '%s=%d' | format('k', 3) }}", "k=3"),
    ("{{ '{:>8}'.format('hi') }}", "      hi"),
    ("{{ '{:{w}}|'.format('hi', w=5) }}", "hi   |"),
    ("{{ '{a}'.format_map({'a': 30000000}) }}", "30000000"),
    ("{{ '42'.zfill(6) }}", "000042"),
    ("{{ lipsum(2, html=False).count('\n\n') }}", "1"),
]


@pytest.mark.parametrize("template, said", REFUSED)
def test_a_huge_padding_is_refused_with_its_size(template, said):
    with pytest.raises(SecurityError, match="at most"):
        try:
            BoundedSandbox().from_string(template).render()
        except SecurityError as exc:
            assert said in str(exc), str(exc)
            raise


@pytest.mark.parametrize("template, expected", ORDINARY)
def test_ordinary_paddings_are_as_before(template, expected):
    assert BoundedSandbox().from_string(template).render() == expected


@pytest.mark.parametrize("expression, said", [
    ("('%020000000d' % 1) | length > 0", "'%' would make 20,000,000 characters; at most 10,000,000"),
    ("('x' | center(20000000)) | length > 0", "'| center' would make 20,000,000 characters; at most 10,000,000"),
    ("('{:>20000000}'.format(1)) | length > 0", "'.format()' would make 20,000,000 characters; at most 10,000,000"),
])
def test_a_huge_padding_fails_its_step_and_the_run_goes_on(tmp_path, expression, said):
    (tmp_path / "p.yaml").write_text(f"""name: paddings
steps:
  - id: big
    when: {json.dumps(expression)}
    run: echo ran
  - id: after
    run: echo "{{{{ '%03d' % 7 }}}} {{{{ 'ab' | center(4) }}}}|"
""")
    result = run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"), "--json")
    steps = {step["id"]: step for step in json.loads(result.stdout)["steps"]}
    assert steps["big"]["status"] == "error", steps["big"]
    assert said in steps["big"]["message"], steps["big"]["message"]
    assert steps["after"]["status"] == "passed", steps["after"]["message"]
    assert steps["after"]["stdout"] == "007  ab |\n"


def test_a_report_template_padding_is_bounded_too(tmp_path):
    (tmp_path / "p.yaml").write_text("name: paddings\nsteps:\n  - id: a\n    run: echo hi\n")
    run_cli("run", str(tmp_path / "p.yaml"), "--host", "local", "--out", str(tmp_path / "runs"))
    (run_dir,) = (tmp_path / "runs").iterdir()
    template = tmp_path / "big.md.j2"
    template.write_text("{{ 'x' | indent(20000000, true) }}\n")
    result = run_cli("report", str(run_dir), "--template", str(template), "-o", str(tmp_path / "out.md"))
    assert result.code == 2, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    assert "'| indent' would make 20,000,000 characters; at most 10,000,000" in result.stderr, result.stderr
    assert not (tmp_path / "out.md").exists()
