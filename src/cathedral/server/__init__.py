"""The game server: ``cathedral serve`` (extra ``web``).

Durable tables for every game over HTTP and WebSockets: ``storage`` keeps each game as its
metadata plus an append-only log of actions, ``tables`` holds the live games in memory and
moves them (humans by token, computers in ``workers``, chance from a per-game seed), ``app``
is the FastAPI application and ``cli`` the command. Nothing here is imported by
``import cathedral``; only ``cli`` is imported by the ``cathedral`` command, and it needs the
standard library alone until the server actually starts.
"""
