"""The agent-spec parser: every bad value is refused with one line naming it and what is
accepted (never a traceback), fuzzed like state JSON."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import cathedral
from cathedral.ai import Agent, load_agent
from cathedral.core.errors import ParameterError

GAME = cathedral.load("classic")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:seconds=abc", "bad value seconds=abc (expected a positive number)"),
        ("mcts:seconds=0", "bad value seconds=0 (expected a positive number)"),
        ("mcts:seconds=-1.5", "bad value seconds=-1.5 (expected a positive number)"),
        ("mcts:seconds=nan", "bad value seconds=nan (expected a positive number)"),
        ("alphabeta:depth=x", "bad value depth=x (expected a positive whole number)"),
        ("alphabeta:depth=0", "bad value depth=0 (expected a positive whole number)"),
        ("alphabeta:depth=2.5", "bad value depth=2.5 (expected a positive whole number)"),
        ("rollout:iterations=-1", "bad value iterations=-1 (expected a positive whole number)"),
        ("mcts:c=abc", "bad value c=abc (expected a non-negative number)"),
        ("mcts:solver=1", "bad value solver=1 (expected true or false)"),
        ("alphabeta:width=-2", "bad value width=-2 (expected a non-negative whole number or none)"),
        ("hard:seconds=none", "seconds=none is not accepted (expected a positive number)"),
        ("mcts:speed=3", "unknown argument 'speed' for mcts (accepted: seconds, iterations, depth"),
        ("rollout:candidates=0", "candidates must be at least 1, got 0"),
    ],
)
def test_a_bad_value_names_itself_and_what_is_accepted(spec, message):
    with pytest.raises(ParameterError) as caught:
        load_agent(spec, GAME)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_good_values_are_typed_as_the_agent_takes_them():
    agent = load_agent("mcts:seconds=2,c=1,solver=false", GAME)
    assert agent.budget.seconds == 2.0 and isinstance(agent.budget.seconds, float)
    assert agent.c == 1.0 and agent.solver is False
    agent = load_agent("alphabeta:depth=3,width=none", GAME)
    assert agent.budget.depth == 3 and agent.width is None


_WORDS = st.sampled_from(["mcts", "alphabeta", "rollout", "greedy", "random", "easy", "medium",
                          "hard", "max", "nope", ""])
_KEYS = st.sampled_from(["seconds", "iterations", "depth", "c", "width", "solver", "contempt",
                         "candidates", "horizon", "budget", "clock", "seed", "x", ""])
_VALUES = st.one_of(
    st.sampled_from(["0", "-1", "1", "2.5", "abc", "none", "true", "false", "nan", "inf",
                     "1e9", "", "=", ","]),
    st.text(max_size=6),
)


@settings(max_examples=300, deadline=None)
@given(base=_WORDS, items=st.lists(st.tuples(_KEYS, _VALUES), max_size=3))
def test_any_spec_gives_an_agent_or_a_parameter_error(base, items):
    spec = base + (":" + ",".join(f"{k}={v}" for k, v in items) if items else "")
    try:
        agent = load_agent(spec, GAME)
    except ParameterError as exc:
        assert str(exc) and "\n" not in str(exc)
    else:
        assert isinstance(agent, Agent)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=30))
def test_any_text_gives_an_agent_or_a_parameter_error(text):
    try:
        load_agent(text, GAME)
    except ParameterError as exc:
        assert "\n" not in str(exc)
