"""An MCP server of the tool tests' own, on the official Python SDK (MCPServer, FastMCP before
2.x): tools that fail, take their time, answer too much, leak a secret, or kill the server
mid-call, one that echoes and one that names its environment. Over stdio by default; `--http PORT` serves streamable HTTP with
JSON answers on 127.0.0.1 (printing the port once it listens).
"""
import asyncio
import os
import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("hostile")


@server.tool()
def echo(text: str) -> str:
    """Gives the text back."""
    return "echo: " + text


@server.tool()
def fail(reason: str = "no such page") -> str:
    """Always fails."""
    raise ValueError("cannot do it: " + reason)


@server.tool()
async def slow(seconds: float = 30) -> str:
    """Answers after a while."""
    await asyncio.sleep(seconds)
    return "late"


@server.tool()
def huge(megabytes: int = 5) -> str:
    """Answers with megabytes of text."""
    return "x" * (megabytes * 1024 * 1024)


@server.tool()
def leak() -> str:
    """Answers with a secret in it."""
    return "the deploy key is ghp_" + "aB3dE" * 7 + "x"


@server.tool()
def environment() -> str:
    """The names of the server's environment variables."""
    return " ".join(sorted(os.environ))


@server.tool()
def die() -> str:
    """The server dies during the call."""
    print("hostile: dying now", file=sys.stderr, flush=True)
    os._exit(3)


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]), json_response=True)
    else:
        server.run()
