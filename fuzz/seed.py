#!/usr/bin/env python3
"""Seeds fuzz/corpus/<target> from the project's fixtures and, when ../shared/data is
beside the repository, from the card datasets. The corpora are not committed: the seeds
from the datasets are generated from them. Usage: python3 fuzz/seed.py"""

import glob
import hashlib
import json
import os
import random

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data")
SEP = b"\n---\n"


def put(target, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as out:
        out.write(data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def main():
    rng = random.Random(20261122)
    decks = sorted(
        glob.glob(os.path.join(ROOT, "tests", "fixtures", "**", "*.txt"), recursive=True)
        + glob.glob(os.path.join(ROOT, "examples", "*.txt"))
    )
    names = set()
    for path in decks:
        data = read(path)
        if len(data) > 64 * 1024:
            continue
        put("check", data)
        put("fmt", data)
        put("editor", data + SEP + bytes(rng.randrange(256) for _ in range(8)))
        for line in data.decode("utf-8", "replace").splitlines():
            parts = line.strip().split(" ", 1)
            if len(parts) == 2 and parts[0].rstrip("x").isdigit():
                names.add(parts[1])
    for name in sorted(names):
        put("names", name.encode())
    for path in sorted(glob.glob(os.path.join(ROOT, "formats", "*.toml"))):
        put("format", read(path))
    tcgdex = os.path.join(DATA, "tcgdex-repo", "data")
    sets = sorted(glob.glob(os.path.join(tcgdex, "*", "*.ts")))
    for set_file in rng.sample(sets, min(60, len(sets))):
        cards = sorted(glob.glob(os.path.join(set_file[:-3], "*.ts")))
        for card in rng.sample(cards, min(4, len(cards))):
            put("from_tcgdex", read(set_file) + SEP + read(card))
    ptcg = os.path.join(DATA, "pokemontcg")
    sets_json = os.path.join(ptcg, "sets", "en.json")
    if os.path.exists(sets_json):
        raw_sets = json.loads(read(sets_json))
        for raw in rng.sample(raw_sets, min(40, len(raw_sets))):
            path = os.path.join(ptcg, "cards", "en", raw["id"] + ".json")
            if not os.path.exists(path):
                continue
            cards = json.loads(read(path))
            chosen = rng.sample(cards, min(3, len(cards)))
            put("from_pokemontcg", json.dumps(raw).encode() + SEP + json.dumps(chosen).encode())
    hostile(rng)
    json_decks(decks)
    for query in QUERIES:
        put("query", query.encode())
    for query in SEARCHES:
        put("search", query.encode())
    for answer in GIT_ANSWERS:
        put("git", answer)
    for text in ASSIST_TEXTS:
        put("assist", text.encode())
    for text in MCP_ARGUMENTS:
        put("mcp", text.encode())
    for text in WEB_OPTIONS:
        put("web", text.encode())
    for target in sorted(os.listdir(CORPUS)):
        print(target, len(os.listdir(os.path.join(CORPUS, target))))


# `deckbox search` queries as players type them (issue 28), and broken ones.
SEARCHES = [
    "Dreepy",
    "Fantyrm",
    "TWM 128",
    "PR-SV 12",
    "sv06-128",
    '"Boss\'s Orders"',
    "type:psychic stage:basic hp>=120 legal:standard",
    'kind:supporter text:"discard your hand"',
    'attack:"Phantom Dive"',
    "is:ace-spec legal:expanded@2015-06-01",
    "-is:ex (name:Dragapult or into:Dragapult) not banned:expanded",
    "evolves:Dreepy released>=2023-01-01 year<2030 retreat<=1 damage>100 cost=3",
    "tpye:psychic",
    "is:Ex",
    "((((",
    "legal:standard@2015-13-40",
]

# git's answers as `deckbox review` and `deckbox log` read them (a diff listing, then a log:
# hash, author date, committer date, subject, then the change).
H = b"0123456789abcdef0123456789abcdef01234567"
GIT_ANSWERS = [
    b"M\0decks/a.txt\0A\0decks/b.txt\0R087\0old.txt\0new.txt\0D\0gone.txt\0"
    + SEP + H + b"\0" + b"2026-11-01\0" + b"2026-11-03\0Add a deck\0\nA\0decks/a.txt\0",
    b"C100\0a.txt\0b.txt\0T\0link\0U\0conflict.txt\0"
    + SEP + H + b"\0" + b"2026-11-02\0" + b"2026-11-02\0Merge\0" + H + b"\0"
    + b"2026-11-01\0" + b"2026-11-01\0x\0\nM\0a.txt\0",
    b"R\0only-one-path\0",
    b"Q\0not a status\0",
    b"M\0\xff\xfe not utf-8\0" + SEP + b"not a hash\0date\0",
]

# What an MCP client sends about files: roots' URIs, paths, page cursors.
ASSIST_TEXTS = [
    "file:///home/player/decks",
    "file://localhost/tmp/a%20b",
    "file://host/share",
    "file:///%ZZ",
    "file:///%c3%28",
    "decks/deck.txt",
    "../../etc/passwd",
    "/etc/passwd",
    "decks/../../outside.txt",
    "0",
    "3",
    "7",
    "18446744073709551616",
    "-1",
]

# The arguments of `deckbox mcp`'s tool calls, as an assistant sends them.
MCP_ARGUMENTS = [
    '{"want": ["Dreepy>=1 & Rare Candy>=1 by T2"], "count_as": ["Nest Ball=Basic Pok\u00e9mon"], "turns": 3}',
    '{"seen": "2 Dreepy, 1 Ultra Ball, Iono", "draws": 5, "prizes": 6, "shuffle_back": "2"}',
    '{"seen": "Iono", "shuffle_back": "Iono", "draws": 60000, "want": ["Dreepy>=2"]}',
    '{"as_of": "2026-02-30", "cursor": "20", "limit": 100}',
    '{"cursor": "18446744073709551616", "limit": 0}',
    '{"want": [], "count_as": ["=", "Nest Ball="], "turns": 0}',
]

# The options of the web page's calls (docs/web.md).
WEB_OPTIONS = [
    '{"format": "standard", "date": "2026-11-28"}',
    '{"format": "all"}',
    '{"format": "expanded", "going": "second", "turns": 3, "want": ["Dreepy>=1"], "countAs": ["Nest Ball=Basic Pok\u00e9mon"], "exactly": true}',
    '{"lang": "fr", "printings": true, "sort": "released", "date": "2024-06-01"}',
    '{"turns": 0}',
    '{"going": "third", "sort": "hp"}',
    '{"unknown": 1}',
    '',
    ' ',
    '[]',
]

# JSON deck lists as tools and event pages write them (issue 26): extra keys a rewrite must
# keep, a list nested or held in a string, repeated keys, wrong types, JSON that is no deck.
JSON_DECKS = [
    '{"player": "Ash", "event": {"name": "Regional", "date": "2026-11-01"}, "pokemon": '
    '[{"count": 4, "name": "Dreepy", "set": "TWM", "number": "128", "id": "twm-128"}], '
    '"trainer": [{"count": 4, "name": "Pok\\u00e9gear 3.0", "set": "SVI", "number": 186, '
    '"english": "Pokegear 3.0"}], "energy": [{"qty": 5, "name": "Basic Psychic Energy", '
    '"set": "SVE", "number": "5"}], "notes": "6-2"}',
    '{"player": "Ash", "decklist": {"pokemon": [{"count": 1, "name": "Mew ex", "set": "MEW", '
    '"number": "151"}], "source": "x"}}',
    '{"id": 3, "deck": [{"amount": 2, "name": "Iono", "ph": true}]}',
    '{"player": "Ash", "decklist": "Pok\\u00e9mon: 4\\n4 Dreepy TWM 128\\n// \\"tech\\"\\n"}',
    '{"list": "4 Dreepy TWM 128\\r\\n?? what\\n"}',
    '[{"count": 2, "name": "Iono", "id": 1}, {"count": 1, "name": "Iono", "id": 2}]',
    '{"language": "en", "player": "Ash", "sections": [{"section": "trainer", "count": 4, '
    '"cards": [{"count": 4, "name": "Iono", "set": "PAL", "number": "185", "note": 1}]}], '
    '"total": 4}',
    '{"pokemon": [], "pokemon": []}',
    '{"pokemon": [{"count": 4, "name": "Dreepy", "count": 3}]}',
    '{"pokemon": [{"count": 4, "qty": 3, "name": "Dreepy"}]}',
    '{"pokemon": [{"count": "four", "name": "Dreepy"}]}',
    '{"pokemon": {}}',
    '{"pokemon": [{"count": 4, "name": 4}]}',
    '{"cards": "Dreepy"}',
    '[1, 2, 3]',
    '{}',
    '[]',
    '"text"',
    '{"pokemon": "x"}',
]


def json_decks(decks):
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "fixtures", "**", "*.json"), recursive=True)):
        put("json", read(path))
    for text in JSON_DECKS:
        put("json", text.encode())
    # Each text list of the fixtures held in a JSON string, as event records keep it.
    for path in decks[:40]:
        text = read(path).decode("utf-8", "replace")
        put("json", json.dumps({"player": "Ash", "decklist": text}).encode())


# What a hostile repository's files may hold (issue 14): terminal escapes, bidirectional and
# zero-width characters, damaged UTF-8, path-like strings.
HOSTILE = [
    b"\x1b[2J\x1b[H", b"\x1b]0;pwned\x07", b"\x1b[31m", b"\x07", b"\x00", b"\r", b"\t",
    "\u202e".encode(), "\u200b".encode(), "\u2066".encode(), b"\xc2\x9b", b"\xff", b"\xc3",
    b"../../etc/passwd", b"/dev/zero", b"/proc/self/fd/0", b"C:\\Windows\\", b"file:///etc/passwd",
]


# `--want` queries in every form of the language (issue 19).
QUERIES = [
    "Rare Candy>=1", "Rare Candy>=1 & Dreepy>=1", "Nest Ball|Buddy-Buddy Poffin>=1",
    "A>=1 | B>=1", "!(A>=1 & B>=2)", "A>=1 & (B>=1 | C>=2 by T3) by T2",
    "Dreepy>=1 & Rare Candy>=1 by T2", "Basic Pok\u00e9mon>=2", "Pikachu & Zekrom-GX>=1",
    "Boss's Orders (Giovanni)>=1 | Challenge!>=1", "A==0 | B<2 | C>1 | D<=3 | E\u22651",
]


def hostile(rng):
    lines = ["Pok\u00e9mon: 4", "4 Dreepy TWM 128", "Trainer: 4", "4 Ultra Ball SVI 196",
             "Energy: 4", "4 Basic {P} Energy SVE 5"]
    for bad in HOSTILE:
        for _ in range(3):
            chosen = [line.encode() for line in lines]
            at = rng.randrange(len(chosen))
            cut = rng.randrange(len(chosen[at]) + 1)
            chosen[at] = chosen[at][:cut] + bad + chosen[at][cut:]
            deck = b"\n".join(chosen) + b"\n"
            put("check", deck)
            put("fmt", deck)
        put("names", b"Iono" + bad)
        put("names", bad + b"Boss's Orders")
        toml_string = bad.decode("latin-1").encode("unicode_escape").replace(b'"', b'\\"')
        put("format", b'id = "x' + toml_string + b'"\nname = "' + toml_string + b'"\nextends = "standard"\n')
        put("format", b'id = "x"\nname = "x"\nextends = "' + toml_string + b'"\n')
        put("format", b'id = "x"\nname = "x' + bad + b'"\n')


main()
