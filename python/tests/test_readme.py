"""python/README.md's "First steps" run as a doctest: every line a newcomer copies works and
prints what the page says (seeded, so the numbers are fixed)."""

import doctest
import pathlib

import pytest

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def _first_steps() -> str:
    text = README.read_text()
    start = text.index("## First steps")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_first_steps_is_a_passing_doctest():
    pytest.importorskip("pandas")
    section = _first_steps()
    test = doctest.DocTestParser().get_doctest(section, {}, "README.md First steps", str(README), 0)
    assert len(test.examples) >= 10  # the five tasks are all there
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} of {runner.tries} README examples failed (see the output)"


def test_each_task_is_at_most_five_lines():
    for block in _first_steps().split("```pycon")[1:]:
        code = [line for line in block.split("```")[0].splitlines() if line.startswith((">>> ", "... "))]
        assert len(code) <= 5, code[0]
