"""A whole session of `deckbox mcp` through the official Python MCP SDK (PyPI `mcp`).

Run by tests/suite/mcp_python.rs: `python3 mcp_python.py DECKBOX ROOT OUTSIDE`, where ROOT
holds dragapult.txt, broken.txt and binder.txt and is the client's one root, and OUTSIDE is
a deck list outside it. Every tool is called with good and bad arguments; a resource is
read; the path outside the root must be refused. Prints one line a call, then `ok`.
"""

import asyncio
import json
import os
import sys

from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client

TOOLS = {
    "check_deck", "search_cards", "card", "opening_odds", "midgame_odds",
    "missing_cards", "convert_list", "format_list", "explain_rule", "list_formats",
}


def text_of(result):
    return "".join(block.text for block in result.content if block.type == "text")


async def session(binary, root, outside):
    async def list_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri="file://" + root, name="decks")])

    params = StdioServerParameters(command=binary, args=["mcp"], cwd=root, env=dict(os.environ))
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, list_roots_callback=list_roots) as client:
            await client.initialize()
            listed = await client.list_tools()
            names = {tool.name for tool in listed.tools}
            assert names == TOOLS, names
            for tool in listed.tools:
                assert tool.description and tool.input_schema["type"] == "object", tool.name
            print("tools:", ", ".join(sorted(names)))

            async def call(name, arguments, error, needle):
                result = await client.call_tool(name, arguments)
                said = text_of(result)
                assert bool(result.is_error) == error, (name, arguments, said)
                assert needle in said, (name, arguments, needle, said[:400])
                print(f"{name}: {'error' if error else 'ok'}: {needle}")
                # The answer is the first block; notes and a next cursor follow it.
                return result.content[0].text

            deck = os.path.join(root, "dragapult.txt")
            with open(deck, encoding="utf-8") as file:
                deck_text = file.read()
            checked = json.loads(await call("check_deck", {"deck_path": "broken.txt"}, False, "copy-limit"))
            assert checked["decks"][0]["valid"] is False, checked
            await call("check_deck", {"deck": deck_text, "format": "expanded"}, False, '"valid": true')
            everywhere = json.loads(await call("check_deck", {"deck_path": "dragapult.txt", "format": "all"}, False, "standard"))
            standard = [entry for entry in everywhere[0]["formats"] if entry["format"] == "standard"]
            assert standard and standard[0]["valid"] is True, everywhere
            await call("check_deck", {"deck_path": outside}, True, "no such file in the folders")
            await call("check_deck", {"deck_path": "../" + os.path.basename(outside)}, True, "no such file in the folders")
            await call("check_deck", {"deck": deck_text, "format": "/etc/passwd"}, True, "unknown format")
            await call("check_deck", {}, True, "give one of")

            first = json.loads(await call("search_cards", {"query": "Dreepy", "limit": 1}, False, "Dreepy"))
            assert len(first["cards"]) == 1, first
            await call("search_cards", {"query": "kind:supporter", "limit": 2}, False, "next_cursor")
            await call("search_cards", {"query": "hp>>12"}, True, "hp")
            await call("search_cards", {"query": "Dreepy", "limit": 1000}, True, "limit")

            await call("card", {"query": "TWM 128"}, False, "Dreepy")
            await call("card", {"query": "Dreepyy"}, True, "unknown card")

            await call("opening_odds", {"deck_path": "dragapult.txt", "want": ["Dreepy>=1"]}, False, "Dreepy>=1")
            await call("opening_odds", {"deck_path": "dragapult.txt", "want": ["Dreepy>="]}, True, "error")
            await call("opening_odds", {"deck_path": "dragapult.txt", "turns": 0}, True, "turns")

            await call("midgame_odds", {"deck_path": "dragapult.txt", "seen": "Dreepy", "draws": 2}, False, "Dreepy")
            await call("midgame_odds", {"deck_path": "dragapult.txt", "seen": "Nothing Known", "draws": 2}, True, "Nothing Known")

            await call("missing_cards", {"deck_path": "dragapult.txt", "collection_path": "binder.txt"}, False, "missing")
            await call("missing_cards", {"deck": deck_text, "collection": "4 Dreepy TWM 128\n"}, False, "missing")
            await call("missing_cards", {"deck_path": "dragapult.txt"}, True, "collection")

            await call("convert_list", {"deck_path": "dragapult.txt", "to": "limitless"}, False, "Dreepy")
            await call("convert_list", {"deck_path": "dragapult.txt", "to": "pdf"}, True, "unknown layout")
            await call("convert_list", {"deck": "4 Dreepy\n"}, False, "warning: PTCG Live imports a Pokémon")

            await call("format_list", {"deck": "2 Dreepy TWM 128\n2 Dreepy TWM 128\n"}, False, "Dreepy")
            await call("format_list", {"deck_path": "missing.txt"}, True, "missing.txt")

            await call("explain_rule", {"rule": "copy-limit"}, False, "copy-limit")
            await call("explain_rule", {"rule": "copy-limits"}, True, "did you mean")

            await call("list_formats", {}, False, "standard")
            await call("list_formats", {"format": "nonsense"}, True, "unknown format")

            resources = await client.list_resources()
            uris = {str(resource.uri) for resource in resources.resources}
            assert "deckbox://rules" in uris and "deckbox://formats/standard" in uris, uris
            rules = await client.read_resource("deckbox://rules")
            assert "copy-limit" in rules.contents[0].text
            print("resource deckbox://rules:", len(rules.contents[0].text) > 1000)
    print("ok")


if __name__ == "__main__":
    asyncio.run(session(*sys.argv[1:4]))
