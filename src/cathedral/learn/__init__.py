"""Learning the games: lessons that teach each game step by step (``cathedral.learn.lessons``)
and puzzles from the computer levels' games with a proof of their answers
(``cathedral.learn.puzzles``). The formats are in docs/learning.md; the data lies in
``data/lessons`` and ``data/puzzles``.

This package sits above ``cathedral.ai`` and below the front ends; it knows the games only
through the contract.
"""
