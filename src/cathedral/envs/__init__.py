"""Research interfaces: the three games as PettingZoo, Gymnasium and OpenSpiel environments.

Each library lives in its own module, imported only when asked for (they are the ``rl``
extra, not dependencies of the engines):

- ``cathedral.envs.pettingzoo``: ``env(game, render_mode=None, **params)`` and ``raw_env``,
  AEC environments for every game and parameter set;
- ``cathedral.envs.gymnasium``: registers ``cathedral/Classic-v0``, ``cathedral/Allmer-v0``
  and ``cathedral/Red-v0``, one seat against built-in opponents;
- ``cathedral.envs.openspiel``: registers ``cathedral_classic``, ``cathedral_allmer`` and
  ``cathedral_red`` with ``pyspiel.register_game``;
- ``cathedral.envs.sb3``: ``MaskableEnv`` and ``make_maskable``, the Gymnasium environments as
  sb3-contrib's MaskablePPO wants them (the ``sb3`` extra), and ``PolicyAgent``, a policy as
  an opponent (self-play).

``adapter`` holds what the three share (chance from a seeded generator, the action-mask
fast path, the observation space); ``layouts`` turns each game's declared observation and
action layouts into tables (``cathedral rules GAME``) and the observation's bounds; ``draw``
paints boards for ``render_mode="rgb_array"``.
"""
