#!/usr/bin/env python3
"""Peer: what a typical Pokémon TCG hypergeometric web calculator computes, for every card.

Our own code, written from the idea (no code or text copied). It models the single-shuffle
arithmetic of public calculators such as:
  - https://515511.xyz/pokemon-tcg-luck-calculator.html
      P(at least one of K copies among T cards) = 1 - C(60-K, T) / C(60, T), with T = 7 for the
      opening hand and T = 7 + n "by turn n" (the turn-1 check is 8 cards).
  - https://tools.gera.services/pokemon-prize-card-probability
      6 prizes from 60: at least one prized 1 - C(60-K, 6)/C(60, 6), all prized
      C(60-K, 6-K)/C(60, 6), expected prized 6K/60.
  - https://ocelot-spinach-2abg.squarespace.com/guide/appendix4 (mulligan chance by number of
      Basic Pokémon: C(60-B, 7)/C(60, 7), 25.86 % for 10 Basics).
Like those pages it knows nothing about mulligans beyond that one number: every value is for one
plain shuffle (deckbox's `*_single_shuffle` keys), and the user must say which cards are Basic
Pokémon (--basics), since a calculator has no card database.

Usage: hypergeometric.py DECK --basics "Dreepy,Duskull,..." [--turns 4] [--json]
Deck layout: `N Name SET NUM` lines, optional `Pokémon:`/`Trainer:`/`Energy:` headers,
`Total Cards:` and blank lines ignored. Printings with the same name are merged.
"""
import argparse
import json
import re
import sys
from math import comb

HAND = 7
PRIZES = 6


def parse_deck(path):
    """[(name, copies)] in first-seen order; the same name in several printings is merged."""
    cards = {}
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.strip()
            if not line or line.startswith("#") or line.endswith(":") or re.match(r"^\w[\w\s]*:\s*\d*$", line):
                continue  # blank, comment, `Pokémon: 19` / `Total Cards: 60` headers
            m = re.match(r"^(\d+)\s+(.+?)(?:\s+([A-Z][A-Z0-9-]{1,7})\s+([A-Za-z0-9-]+))?$", line)
            if not m:
                sys.exit(f"cannot read deck line: {line!r}")
            n, name = int(m.group(1)), m.group(2).strip()
            cards[name] = cards.get(name, 0) + n
    return list(cards.items())


def at_least_one(deck, copies, drawn):
    return 1.0 - comb(deck - copies, drawn) / comb(deck, drawn)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("deck")
    ap.add_argument("--basics", required=True, help="comma-separated names of the Basic Pokémon")
    ap.add_argument("--turns", type=int, default=4)
    ap.add_argument("--json", action="store_true", help="print JSON with deckbox's key names")
    a = ap.parse_args()

    cards = parse_deck(a.deck)
    names = {n for n, _ in cards}
    basics = [b.strip() for b in a.basics.split(",") if b.strip()]
    unknown = [b for b in basics if b not in names]
    if unknown:
        sys.exit(f"--basics names not in the deck: {', '.join(unknown)}")
    size = sum(c for _, c in cards)
    b = sum(c for n, c in cards if n in basics)
    total = comb(size, HAND)
    prize_total = comb(size, PRIZES)

    rows = []
    for name, k in cards:
        rows.append({
            "name": name,
            "copies": k,
            "basic": name in basics,
            "opening_hand_single_shuffle": at_least_one(size, k, HAND),
            "prized_at_least_one_single_shuffle": 1.0 - comb(size - k, PRIZES) / prize_total,
            "prized_all_single_shuffle": (comb(size - k, PRIZES - k) / prize_total) if k <= PRIZES else 0.0,
            "prized_expected_single_shuffle": PRIZES * k / size,
            "by_turn_single_shuffle": [at_least_one(size, k, HAND + t) for t in range(1, a.turns + 1)],
        })
    report = {"deck": {"cards": size, "basic_pokemon": b},
              "mulligan": {"probability": comb(size - b, HAND) / total},
              "cards": rows}

    if a.json:
        json.dump(report, sys.stdout, indent=1, ensure_ascii=False)
        print()
        return
    print(f"{size} cards, {b} Basic Pokémon; P(mulligan) = {report['mulligan']['probability']:.2%}")
    w = max(len(r["name"]) for r in rows)
    turns = "".join(f"{'T' + str(t):>8}" for t in range(1, a.turns + 1))
    print(f"{'Card':<{w}}  {'N':>2}  {'Hand':>7}  {'≥1 prz':>7}  {'all prz':>7}  {'E[prz]':>6}{turns}")
    for r in rows:
        bt = "".join(f"{p:>8.2%}" for p in r["by_turn_single_shuffle"])
        print(f"{r['name']:<{w}}  {r['copies']:>2}  {r['opening_hand_single_shuffle']:>7.2%}  "
              f"{r['prized_at_least_one_single_shuffle']:>7.2%}  {r['prized_all_single_shuffle']:>7.2%}  "
              f"{r['prized_expected_single_shuffle']:>6.3f}{bt}")
    print("single shuffle: one plain shuffle, mulligans ignored (what the web calculators compute)")


if __name__ == "__main__":
    main()
