#!/usr/bin/env node
// Peer: a Monte Carlo opening-hand simulator in plain Node.js, the way public JavaScript
// Pokémon TCG hand simulators do it. Our own code, written from the idea (no code copied).
// The approach it models:
//   - https://github.com/anonames-lair/Website (tcg/main.js): the deck as an array of 60
//     cards, a Fisher–Yates shuffle driven by Math.random, a 7-card hand, 6 prize cards.
//   - https://github.com/saikatisu/-pokeca_simulation (README procedure): draw 7; without a
//     Basic Pokémon put them back and draw 7 again; then set 6 prizes; then draw for the turn;
//     repeat many times and count how often the wanted card shows up.
// Like those, it reshuffles the whole 60-card deck for every deal (mulligans included) and
// counts with plain loops; the deck is a Uint8Array of card-kind ids (kinder to the peer than
// the arrays of card objects the web simulators shuffle, so its rate is an upper bound for them).
//
// Usage:
//   node simulator.js DECK --basics "Dreepy,Duskull,..." --setups N --target "Rare Candy"
//   node simulator.js DECK --basics "..." --setups N --all        (every card kind)
//   options: --turns 4 (own draws counted, going first: the first player draws on turn 1)
//            --json    (estimates under deckbox's kept-hand key names)
// Deck layout: `N Name SET NUM` lines with optional `Pokémon:`/`Trainer:`/`Energy:` headers.
'use strict';
const fs = require('fs');

const HAND = 7;
const PRIZES = 6;

function die(msg) { process.stderr.write(`simulator.js: ${msg}\n`); process.exit(2); }

function parseArgs(argv) {
  const a = { deck: null, basics: null, setups: 1000000, target: null, all: false, turns: 4, json: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i];
    const val = () => { if (i + 1 >= argv.length) die(`${k} needs a value`); return argv[++i]; };
    if (k === '--basics') a.basics = val();
    else if (k === '--setups') a.setups = Number(val());
    else if (k === '--target') a.target = val();
    else if (k === '--all') a.all = true;
    else if (k === '--turns') a.turns = Number(val());
    else if (k === '--json') a.json = true;
    else if (k.startsWith('--')) die(`unknown option ${k}`);
    else a.deck = k;
  }
  if (!a.deck || a.basics === null) die('usage: simulator.js DECK --basics "A,B" --setups N (--target NAME | --all)');
  if (!a.all && !a.target) die('give --target NAME or --all');
  if (!(Number.isInteger(a.setups) && a.setups > 0)) die('--setups must be a positive integer');
  return a;
}

function parseDeck(path) {
  const kinds = new Map();
  for (const raw of fs.readFileSync(path, 'utf8').split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || /^[^\d][^:]*:\s*\d*$/.test(line)) continue; // headers
    const m = /^(\d+)\s+(.+?)(?:\s+([A-Z][A-Z0-9-]{1,7})\s+([A-Za-z0-9-]+))?$/.exec(line);
    if (!m) die(`cannot read deck line: ${JSON.stringify(line)}`);
    const name = m[2].trim();
    kinds.set(name, (kinds.get(name) || 0) + Number(m[1]));
  }
  return [...kinds.entries()].map(([name, copies]) => ({ name, copies }));
}

const args = parseArgs(process.argv.slice(2));
const kinds = parseDeck(args.deck);
const K = kinds.length;
const names = kinds.map(k => k.name);
const basicNames = args.basics.split(',').map(s => s.trim()).filter(Boolean);
for (const b of basicNames) if (!names.includes(b)) die(`--basics name not in the deck: ${b}`);
const isBasic = new Uint8Array(K);
kinds.forEach((k, i) => { isBasic[i] = basicNames.includes(k.name) ? 1 : 0; });
const deck = [];
kinds.forEach((k, i) => { for (let c = 0; c < k.copies; c++) deck.push(i); });
const cards = new Uint8Array(deck);
const N = cards.length;
const T = args.turns;
if (HAND + PRIZES + T > N) die('deck too small');
if (!isBasic.some(x => x)) die('no Basic Pokémon: every hand would be a mulligan');

function shuffle(a) { // Fisher–Yates, Math.random
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    const t = a[i]; a[i] = a[j]; a[j] = t;
  }
}

// One setup: reshuffle until the top 7 hold a Basic Pokémon; returns the mulligans taken.
// Then cards[0..7) is the hand, cards[7..13) the prizes, cards[13 + n - 1] the turn-n draw.
function deal() {
  let mulligans = 0;
  for (;;) {
    shuffle(cards);
    for (let p = 0; p < HAND; p++) if (isBasic[cards[p]]) return mulligans;
    mulligans++;
  }
}

const S = args.setups;
let mulligans = 0;
const t0 = process.hrtime.bigint();
let out;
if (!args.all) {
  const t = names.indexOf(args.target);
  if (t < 0) die(`--target not in the deck: ${args.target}`);
  let hand = 0, prizedAny = 0;
  const byTurn = new Float64Array(T);
  for (let s = 0; s < S; s++) {
    mulligans += deal();
    let seen = 0;
    for (let p = 0; p < HAND; p++) if (cards[p] === t) { seen = 1; break; }
    hand += seen;
    for (let p = HAND; p < HAND + PRIZES; p++) if (cards[p] === t) { prizedAny++; break; }
    for (let n = 0; n < T; n++) { if (!seen && cards[HAND + PRIZES + n] === t) seen = 1; byTurn[n] += seen; }
  }
  out = [{ name: names[t], copies: kinds[t].copies, opening_hand: hand / S,
           prized_at_least_one: prizedAny / S, by_turn: [...byTurn].map(x => x / S) }];
} else {
  const hand = new Float64Array(K), prizedAny = new Float64Array(K), prizedAll = new Float64Array(K);
  const prizedSum = new Float64Array(K), byTurn = new Float64Array(K * T);
  const copies = Uint8Array.from(kinds.map(k => k.copies));
  const seenAt = new Uint8Array(K), prized = new Uint8Array(K);
  const NEVER = 255;
  for (let s = 0; s < S; s++) {
    mulligans += deal();
    seenAt.fill(NEVER); prized.fill(0);
    for (let p = 0; p < HAND; p++) seenAt[cards[p]] = 0;
    for (let p = HAND; p < HAND + PRIZES; p++) prized[cards[p]]++;
    for (let n = 1; n <= T; n++) { const c = cards[HAND + PRIZES + n - 1]; if (seenAt[c] > n) seenAt[c] = n; }
    for (let k = 0; k < K; k++) {
      const at = seenAt[k];
      if (at === 0) hand[k]++;
      for (let n = at === 0 ? 1 : at; n <= T; n++) byTurn[(n - 1) * K + k]++;
      const pz = prized[k];
      if (pz) { prizedAny[k]++; prizedSum[k] += pz; if (pz === copies[k]) prizedAll[k]++; }
    }
  }
  out = kinds.map((kd, k) => ({
    name: kd.name, copies: kd.copies, opening_hand: hand[k] / S,
    prized_at_least_one: prizedAny[k] / S, prized_all: prizedAll[k] / S,
    prized_expected: prizedSum[k] / S,
    by_turn: Array.from({ length: T }, (_, n) => byTurn[n * K + k] / S),
  }));
}
const secs = Number(process.hrtime.bigint() - t0) / 1e9;
const report = {
  setups: S, mode: args.all ? 'all' : 'target', seconds_in_loop: secs, setups_per_second: S / secs,
  mulligan: { probability: mulligans / (mulligans + S), expected_mulligans: mulligans / S },
  cards: out,
};
if (args.json) {
  process.stdout.write(JSON.stringify(report, null, 1) + '\n');
} else {
  const pct = x => (100 * x).toFixed(2).padStart(7) + '%';
  console.log(`${S} setups (${report.mode}) in ${secs.toFixed(3)} s of loop: ${(S / secs / 1e6).toFixed(3)} M setups/s`);
  console.log(`P(mulligan) ${pct(report.mulligan.probability)}  E[mulligans] ${report.mulligan.expected_mulligans.toFixed(3)}`);
  const w = Math.max(...out.map(r => r.name.length));
  const turns = Array.from({ length: T }, (_, n) => `T${n + 1}`.padStart(8)).join('');
  console.log(`${'Card'.padEnd(w)}     Hand   ≥1 prz${args.all ? '  all prz  E[prz]' : ''}${turns}`);
  for (const r of out) {
    const extra = args.all ? ` ${pct(r.prized_all)}  ${r.prized_expected.toFixed(3)}` : '';
    console.log(`${r.name.padEnd(w)} ${pct(r.opening_hand)} ${pct(r.prized_at_least_one)}${extra}${r.by_turn.map(pct).join('')}`);
  }
  console.log('kept-hand estimates: the hand kept after mulligans; prizes and draws from the rest');
}
