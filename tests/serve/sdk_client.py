"""Drives `skilltui serve` with the official MCP Python SDK (`mcp` 2.3.0).

Usage: sdk_client.py MODE SKILL RESOURCE_URI COMMAND [ARGS...]

MODE is the SDK's `legacy` (the initialize handshake) or `auto` (probes
`server/discover`, reaches 2026-07-28). Prints one JSON object: the
negotiated version, the server's capabilities, the tool names, what
`load_skill` returns for SKILL, what it returns for a name that is not
served, and the resource read of RESOURCE_URI (text, or base64 blob).
"""

import asyncio
import json
import sys

from mcp import Client, StdioServerParameters


async def main() -> None:
    mode, skill, resource, command, *args = sys.argv[1:]
    params = StdioServerParameters(command=command, args=args)
    async with Client(params, mode=mode) as client:
        caps = client.server_capabilities.model_dump(by_alias=True, exclude_none=True)
        tools = await client.list_tools()
        loaded = await client.call_tool("load_skill", {"name": skill})
        unknown = await client.call_tool("load_skill", {"name": "no-such-skill"})
        read = await client.read_resource(resource)
        content = read.contents[0].model_dump(by_alias=True, exclude_none=True)
        print(
            json.dumps(
                {
                    "protocol_version": client.protocol_version,
                    "capabilities": caps,
                    "instructions": client.instructions,
                    "tools": [t.name for t in tools.tools],
                    "load": [c.text for c in loaded.content if c.type == "text"],
                    "load_error": loaded.is_error,
                    "unknown": [c.text for c in unknown.content if c.type == "text"],
                    "unknown_error": unknown.is_error,
                    "resource": content,
                }
            )
        )


asyncio.run(main())
