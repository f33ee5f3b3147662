#!/usr/bin/python3
"""A Service in front of several replicas, for tests that run two operator processes on one
machine: listens on LISTEN_PORT and forwards each connection (bytes both ways, TLS untouched) to
the next backend port that accepts it, in turn, skipping dead ones, as kube-proxy spreads a
Service's connections over its ready endpoints.

Usage: tcp_service.py LISTEN_PORT BACKEND_PORT...
"""
import asyncio
import itertools
import sys


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, asyncio.CancelledError):
        pass
    finally:
        writer.close()


async def main(listen_port, backends):
    turn = itertools.cycle(backends)

    async def serve(client_reader, client_writer):
        for _ in backends:
            port = next(turn)
            try:
                reader, writer = await asyncio.open_connection("127.0.0.1", port)
            except OSError:
                continue
            await asyncio.gather(pipe(client_reader, writer), pipe(reader, client_writer))
            return
        client_writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", listen_port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]), [int(p) for p in sys.argv[2:]]))
