"""The game server: ``cathedral serve`` (extra ``web``).

Durable tables for every game over HTTP and WebSockets: ``storage`` keeps each game as its
metadata plus an append-only log of actions; ``hub`` holds the live games in memory (each a
``table``) and changes them through ``commands`` (what clients ask) and ``computer``
(computer players, chance, clocks); ``thinking`` runs the computer players and every heavy
job in worker processes (``worker``), fairly; ``limits`` and ``inputs`` say what a client may
send; ``app`` is the FastAPI application with its ``routes``, ``deps`` and ``middleware``,
``settings`` its configuration, and ``cli`` the command. Nothing here is imported by
``import cathedral``; only ``cli`` is imported by the ``cathedral`` command, and it needs the
standard library alone until the server actually starts.
"""
