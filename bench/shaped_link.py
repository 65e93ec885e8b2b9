"""A slow network in front of a local server, for benchmarks: a TCP proxy whose connections
share one downlink and one uplink of fixed bandwidth, each direction adding half the round
trip time, and each new connection one round trip for its handshake.

Chromium's own network emulation (CDP Network.emulateNetworkConditions) applies to the page
only, not to its service worker's fetches (measured: 81 KB took 991 ms from the page at
100 KB/s and 7.5 ms from the service worker), and a first visit is mostly the service
worker's precache: so the bench shapes the traffic here instead, which slows every fetch.

    with ShapedLink(("127.0.0.1", 5000), down_bps=1.6e6, up_bps=0.75e6, rtt_ms=150) as link:
        open(link.url)
"""

from __future__ import annotations

import asyncio
import threading
import time

CHUNK = 16 * 1024


class Direction:
    """One direction of the link: bytes queue behind each other at `bps` bits per second."""

    def __init__(self, bps: float, delay_s: float):
        self.bytes_per_s = bps / 8
        self.delay_s = delay_s
        self.free_at = 0.0

    def arrival(self, size: int) -> float:
        """When `size` bytes put on the link now arrive at the other end (loop time)."""
        now = time.monotonic()
        self.free_at = max(now, self.free_at) + size / self.bytes_per_s
        return self.free_at + self.delay_s


class ShapedLink:
    """The proxy, run in a thread; `url` is its http:// address."""

    def __init__(self, target: tuple[str, int], down_bps: float, up_bps: float, rtt_ms: float):
        self.target = target
        self.rtt_s = rtt_ms / 1000
        self.down = Direction(down_bps, self.rtt_s / 2)
        self.up = Direction(up_bps, self.rtt_s / 2)
        self.loop = asyncio.new_event_loop()
        self.started = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.port = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self):
        self.thread.start()
        self.started.wait(10)
        return self

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(5)

    def _run(self):
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._connection, "127.0.0.1", 0))
        self.port = server.sockets[0].getsockname()[1]
        self.started.set()
        self.loop.run_forever()

    async def _connection(self, client_reader, client_writer):
        await asyncio.sleep(self.rtt_s)  # the handshake's round trip
        try:
            server_reader, server_writer = await asyncio.open_connection(*self.target)
        except OSError:
            client_writer.close()
            return
        await asyncio.gather(self._pump(client_reader, server_writer, self.up),
                             self._pump(server_reader, client_writer, self.down),
                             return_exceptions=True)

    async def _hold(self):
        """Awaited before each piece of data crosses the link: a subclass holds it here (an
        outage that keeps the connections)."""

    async def _pump(self, reader, writer, direction: Direction):
        queue: asyncio.Queue = asyncio.Queue()

        async def deliver():
            while (item := await queue.get()) is not None:
                at, data = item
                await asyncio.sleep(max(0.0, at - time.monotonic()))
                await self._hold()
                writer.write(data)
                await writer.drain()
            writer.close()

        sender = asyncio.ensure_future(deliver())
        try:
            while data := await reader.read(CHUNK):
                await self._hold()
                queue.put_nowait((direction.arrival(len(data)), data))
        finally:
            queue.put_nowait(None)
            await sender
