"""The site bus without a Redis server: what a process does with a change announced by
another (the message handling in ``SiteBus.changed``), on a stand-in hub."""

from __future__ import annotations

import asyncio

from cathedral.server.site import SiteBus


class StandInHub:
    """The parts of ``Hub`` the bus uses: the cache, the loads under way, refresh, spawn."""

    def __init__(self) -> None:
        self.tables: dict[str, object] = {}
        self.loads: dict[str, asyncio.Future] = {}
        self.refreshed: list[str] = []
        self.tasks: set[asyncio.Task] = set()

    def loading(self, game_id: str) -> asyncio.Future | None:
        return self.loads.get(game_id)

    async def refresh(self, game_id: str, resend: bool = False) -> None:
        self.refreshed.append(game_id)

    def spawn(self, coro) -> asyncio.Task:
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        return task

    async def settle(self) -> None:
        while any(not t.done() for t in self.tasks):
            await asyncio.gather(*self.tasks)


def bus_on(hub: StandInHub) -> SiteBus:
    return SiteBus("redis://127.0.0.1:1", hub)  # never connects: nothing here starts it


def test_a_change_announced_while_the_game_loads_is_reloaded_once_it_is_cached():
    async def run() -> list[str]:
        hub = StandInHub()
        bus = bus_on(hub)
        load = asyncio.get_running_loop().create_future()
        hub.loads["g"] = load
        bus.changed("g")  # the load may have read the game before this change
        await asyncio.sleep(0)
        assert hub.refreshed == []  # not before the load ends
        hub.tables["g"] = object()
        del hub.loads["g"]
        load.set_result(hub.tables["g"])
        await hub.settle()
        await bus.close()
        return hub.refreshed

    assert asyncio.run(run()) == ["g"]


def test_a_change_to_a_game_neither_cached_nor_loading_is_ignored():
    async def run() -> list[str]:
        hub = StandInHub()
        bus = bus_on(hub)
        bus.changed("g")
        failed = asyncio.get_running_loop().create_future()
        hub.loads["h"] = failed
        bus.changed("h")
        del hub.loads["h"]
        failed.set_exception(LookupError("no game h"))  # a load that failed caches nothing
        await hub.settle()
        await bus.close()
        return hub.refreshed

    assert asyncio.run(run()) == []
