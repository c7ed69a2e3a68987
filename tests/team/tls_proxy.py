"""A TLS-terminating proxy in front of the team inbox, as a reverse proxy (Caddy, nginx) stands
in front of it: `python3 tls_proxy.py CERT KEY PORT` serves TLS on a free port of 127.0.0.1,
says that port on stdout, and passes every connection on to 127.0.0.1:PORT as it is."""

import asyncio
import ssl
import sys

CERT, KEY, TARGET = sys.argv[1], sys.argv[2], int(sys.argv[3])


async def pipe(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    finally:
        writer.close()


async def handle(reader, writer):
    target_reader, target_writer = await asyncio.open_connection("127.0.0.1", TARGET)
    await asyncio.gather(pipe(reader, target_writer), pipe(target_reader, writer),
                         return_exceptions=True)


async def main():
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(CERT, KEY)
    server = await asyncio.start_server(handle, "127.0.0.1", 0, ssl=context)
    print(server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


asyncio.run(main())
