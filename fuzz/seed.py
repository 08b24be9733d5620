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
    for target in sorted(os.listdir(CORPUS)):
        print(target, len(os.listdir(os.path.join(CORPUS, target))))


main()
