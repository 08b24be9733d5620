#!/usr/bin/env bash
# Side-by-side: deckbox's opening-hand statistics against the peers a player would otherwise run
# (a hypergeometric web calculator, hypergeometric.py; a JavaScript Monte Carlo simulator,
# simulator.js). Prints a Markdown report on stdout; progress goes to stderr.
#
#   benches/peers/compare.sh BINARY > result.md
#
# BINARY is a deckbox release binary. Needs bash 5, python3, node. Environment overrides:
#   DECK (default examples/dragapult.txt), BASICS (comma list), TARGET (one-card mode),
#   ROUNDS (3), RUNS (20 process starts per timing), MIN_WALL (2.0 s per simulation run),
#   N_DB1 (20000000), N_DB2 (40000000), N_JS1 (3000000), N_JSALL (2000000): starting setups;
#   an unmeasured calibration run shorter than 1.25 x MIN_WALL rescales N to about 1.35 x MIN_WALL,
#   and a measured run shorter than MIN_WALL is rescaled the same way and redone (N may then
#   differ between rounds; each rate is that run's N / wall seconds).
# Every measurement is repeated ROUNDS times, tools alternating within each round, and the best
# is reported (the machine has 2 cores and other work may run on it). Only one measured process
# runs at a time.
set -euo pipefail
export LC_ALL=C

BIN=${1:?usage: compare.sh BINARY}
BIN=$(cd "$(dirname "$BIN")" && pwd)/$(basename "$BIN")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DECK=${DECK:-$HERE/../../examples/dragapult.txt}
DECK=$(cd "$(dirname "$DECK")" && pwd)/$(basename "$DECK")
BASICS=${BASICS:-"Dreepy,Duskull,Budew,Lillie's Clefairy ex,Fezandipiti ex,Meowth ex"}
TARGET=${TARGET:-"Rare Candy"}
ROUNDS=${ROUNDS:-3}
RUNS=${RUNS:-20}
MIN_WALL=${MIN_WALL:-2.0}
N_DB1=${N_DB1:-20000000}
N_DB2=${N_DB2:-40000000}
N_JS1=${N_JS1:-3000000}
N_JSALL=${N_JSALL:-2000000}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
log() { printf '%s\n' "$*" >&2; }
fsub() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.6f", a - b }'; }

# --- the tools, each writing its output to stdout ---------------------------------------------
exact_db() { "$BIN" stats "$DECK" -o json; }
exact_py() { python3 "$HERE/hypergeometric.py" "$DECK" --basics "$BASICS" --json; }
sim_db1()  { "$BIN" stats "$DECK" --simulate "$1" --threads 1 -o json; }
sim_db2()  { "$BIN" stats "$DECK" --simulate "$1" --threads 2 -o json; }
sim_js1()  { node "$HERE/simulator.js" "$DECK" --basics "$BASICS" --setups "$1" --target "$TARGET" --json; }
sim_jsall() { node "$HERE/simulator.js" "$DECK" --basics "$BASICS" --setups "$1" --all --json; }

# timed OUT CMD...: run once, stdout to OUT; print "wall cpu" (whole process, seconds; cpu is
# user + sys of the process and its children: cpu / wall shows how many cores it really got)
timed() {
  local out=$1; shift
  local TIMEFORMAT='%3U %3S' t0=$EPOCHREALTIME wall ut
  ut=$( { time "$@" >"$out" 2>"$TMP/stderr"; } 2>&1 )
  wall=$(fsub "$EPOCHREALTIME" "$t0")
  awk -v w="$wall" -v ut="$ut" 'BEGIN { split(ut, a, " "); printf "%s %.3f\n", w, a[1] + a[2] }'
}
# mean_of RUNS CMD...: mean whole-process wall seconds over RUNS runs
mean_of() {
  local n=$1; shift
  local t0=$EPOCHREALTIME i
  for ((i = 0; i < n; i++)); do "$@" >/dev/null; done
  awk -v a="$EPOCHREALTIME" -v b="$t0" -v n="$n" 'BEGIN { printf "%.6f", (a - b) / n }'
}

# --- 0. the Basic Pokémon given to the peers must be the ones deckbox knows ---------------------
LOAD0=$(cut -d' ' -f1-3 /proc/loadavg)
exact_db >"$TMP/db.json"
exact_py >"$TMP/py.json"
python3 - "$TMP/db.json" "$BASICS" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
known = {c["name"] for c in d["cards"] if c["basic"]}
given = {b.strip() for b in sys.argv[2].split(",") if b.strip()}
if known != given:
    sys.exit(f"BASICS disagree with deckbox: deckbox {sorted(known)}, given {sorted(given)}")
EOF

# --- 1. process time of the exact statistics: deckbox vs the hypergeometric calculator ----------
log "exact statistics: $ROUNDS rounds of $RUNS process runs each, alternating"
: >"$TMP/exact.tsv"
for ((r = 1; r <= ROUNDS; r++)); do
  printf 'deckbox\t%s\n' "$(mean_of "$RUNS" exact_db)" >>"$TMP/exact.tsv"
  printf 'python\t%s\n' "$(mean_of "$RUNS" exact_py)" >>"$TMP/exact.tsv"
done

# --- 2. simulation rates ----------------------------------------------------------------------
declare -A N=([db1]=$N_DB1 [db2]=$N_DB2 [js1]=$N_JS1 [jsall]=$N_JSALL)
for k in db1 js1 jsall db2; do  # calibration (unmeasured): each run must take >= MIN_WALL
  read -r w _ < <(timed "$TMP/cal.json" "sim_$k" "${N[$k]}")
  if awk -v w="$w" -v m="$MIN_WALL" 'BEGIN { exit !(w < 1.25 * m) }'; then  # margin: the speed drifts
    N[$k]=$(awk -v n="${N[$k]}" -v w="$w" -v m="$MIN_WALL" 'BEGIN { printf "%d", int(n * m * 1.35 / w / 1e5 + 1) * 1e5 }')
  fi
  log "calibration $k: ${w}s -> ${N[$k]} setups"
done
: >"$TMP/sim.tsv"
for ((r = 1; r <= ROUNDS; r++)); do
  for k in db1 js1 jsall db2; do
    for try in 1 2 3 4; do  # a run shorter than MIN_WALL (the machine got faster) is rescaled and redone
      read -r w cpu < <(timed "$TMP/$k.$r.json" "sim_$k" "${N[$k]}")
      awk -v w="$w" -v m="$MIN_WALL" 'BEGIN { exit !(w < m) }' || break
      log "round $r $k: ${N[$k]} setups in ${w}s, shorter than ${MIN_WALL}s: rescaling and redoing"
      N[$k]=$(awk -v n="${N[$k]}" -v w="$w" -v m="$MIN_WALL" 'BEGIN { printf "%d", int(n * m * 1.35 / w / 1e5 + 1) * 1e5 }')
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$k" "$r" "${N[$k]}" "$w" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)" >>"$TMP/sim.tsv"
    log "round $r $k: ${N[$k]} setups in ${w}s (cpu ${cpu}s)"
  done
done

# --- 3. report --------------------------------------------------------------------------------
CPU=$(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //')
export BIN DECK BASICS TARGET ROUNDS RUNS MIN_WALL CPU
export NPROC=$(nproc) NODEV=$(node --version) PYV=$(python3 --version 2>&1) DBV=$("$BIN" --version)
export LOAD0 LOAD=$(cut -d' ' -f1-3 /proc/loadavg) WHEN=$(date -u +%Y-%m-%dT%H:%MZ) KERNEL=$(uname -r)
python3 - "$TMP" <<'EOF'
import json, math, os, sys
tmp = sys.argv[1]
E = os.environ
deck_rel = os.path.relpath(E["DECK"], os.getcwd()) if E["DECK"].startswith(os.getcwd()) else E["DECK"]
db = json.load(open(f"{tmp}/db.json"))
py = json.load(open(f"{tmp}/py.json"))

# agreement of the shared single-shuffle numbers
keys = ["opening_hand_single_shuffle", "prized_at_least_one_single_shuffle",
        "prized_all_single_shuffle", "prized_expected_single_shuffle"]
pyc = {c["name"]: c for c in py["cards"]}
pairs = [("mulligan", db["mulligan"]["probability"], py["mulligan"]["probability"])]
missing = []
for c in db["cards"]:
    p = pyc.get(c["name"])
    if p is None:
        missing.append(c["name"]); continue
    for k in keys:
        pairs.append((f"{k}/{c['name']}", c[k], p[k]))
    for i, (a, b) in enumerate(zip(c["by_turn_single_shuffle"], p["by_turn_single_shuffle"])):
        pairs.append((f"by_turn_single_shuffle[{i+1}]/{c['name']}", a, b))
oh = [x for x in pairs if x[0].startswith("opening_hand_single_shuffle/")]
def disagree(ps): return [x for x in ps if abs(x[1] - x[2]) >= 5e-5 or f"{x[1]:.4f}" != f"{x[2]:.4f}"]
bad_oh, bad_all = disagree(oh), disagree(pairs)
maxdiff = max(abs(a - b) for _, a, b in pairs)

# timings
exact = {}
for line in open(f"{tmp}/exact.tsv"):
    t, s = line.split("\t"); exact.setdefault(t, []).append(float(s))
sim = {}
for line in open(f"{tmp}/sim.tsv"):
    k, r, n, w, cpu, load = line.split("\t")
    sim.setdefault(k, []).append((int(r), int(n), float(w), float(cpu), float(load)))
def best(k):
    r, n, w, cpu, load = min(sim[k], key=lambda x: x[2])
    return r, n, w, n / w, cpu

# estimates against deckbox's exact kept-hand values (z = (estimate - exact) / SE)
exact_kept = {c["name"]: c for c in db["cards"]}
def maxz_js(k):
    r = best(k)[0]
    d = json.load(open(f"{tmp}/{k}.{r}.json")); S = d["setups"]; zs = []
    trials = S * (1 + d["mulligan"]["expected_mulligans"])
    p = db["mulligan"]["probability"]
    zs.append(("mulligan", (d["mulligan"]["probability"] - p) / math.sqrt(p * (1 - p) / trials)))
    for c in d["cards"]:
        x = exact_kept[c["name"]]
        est = [("opening_hand", c["opening_hand"], x["opening_hand"]),
               ("prized_at_least_one", c["prized_at_least_one"], x["prized_at_least_one"])]
        if "prized_all" in c: est.append(("prized_all", c["prized_all"], x["prized_all"]))
        est += [(f"by_turn_{i+1}", e, t) for i, (e, t) in enumerate(zip(c["by_turn"], x["by_turn"]))]
        for name, e, t in est:
            se = math.sqrt(t * (1 - t) / S)
            if se > 0: zs.append((f"{name}/{c['name']}", (e - t) / se))
    name, z = max(zs, key=lambda x: abs(x[1]))
    return len(zs), name, z
def maxz_db(k):
    r = best(k)[0]
    est = json.load(open(f"{tmp}/{k}.{r}.json"))["simulation"]["estimates"]
    zs = [(n, (v["estimate"] - v["exact"]) / v["standard_error"]) for n, v in est.items() if v["standard_error"] > 0]
    name, z = max(zs, key=lambda x: abs(x[1]))
    return len(zs), name, z

B, T = E["BIN"], E["TARGET"]
basics = E["BASICS"]
ms = lambda s: f"{s * 1000:.1f} ms"
rate = lambda k: "{:.2f} M setups/s ({:,} setups in {:.2f} s; {:.2f} CPU s = {:.2f} cores busy)".format(
    best(k)[3] / 1e6, best(k)[1], best(k)[2], best(k)[4], best(k)[4] / best(k)[2])
print(f"# deckbox vs peers: opening-hand statistics ({os.path.basename(E['DECK'])})\n")
print(f"Measured {E['WHEN']} with `benches/peers/compare.sh {E['BIN']}` ({E['DBV']}). "
      f"Best of {E['ROUNDS']} rounds, tools alternating within each round; one measured process at a time. "
      f"Load average (1, 5, 15 min) at the start: {E['LOAD0']}, at the end: {E['LOAD']}.\n")
print("| tool | what it computes | command | time / rate |")
print("| --- | --- | --- | --- |")
print(f"| deckbox (exact) | every card: kept-hand (after mulligans) and single-shuffle chance in the opening hand, "
      f"prized (≥1, all, expected), seen by turn 1–4; full mulligan distribution; Basics from its card database "
      f"| `{B} stats {deck_rel} -o json` | {ms(min(exact['deckbox']))} per process (mean of {E['RUNS']}) |")
print(f"| hypergeometric.py (web calculator) | every card: single-shuffle opening hand, prized (≥1, all, expected), "
      f"by turn 1–4; P(mulligan) from the Basics count; Basics typed in by the user "
      f"| `python3 hypergeometric.py {deck_rel} --basics \"…\" --json` | {ms(min(exact['python']))} per process (mean of {E['RUNS']}) |")
print(f"| deckbox --simulate, 1 thread | every kind: kept-hand opening hand, prized (≥1, all, expected), seen by turn 1–4, "
      f"mulligans, each with its SE against the exact value | `{B} stats {deck_rel} --simulate {best('db1')[1]} --threads 1 -o json` | {rate('db1')} |")
print(f"| simulator.js, one target (JS peer) | {T} only: opening hand, ≥1 prized, seen by turn 1–4; mulligans "
      f"| `node simulator.js {deck_rel} --basics \"…\" --setups {best('js1')[1]} --target \"{T}\" --json` | {rate('js1')} |")
print(f"| simulator.js, every kind | every kind: opening hand, prized (≥1, all, expected), seen by turn 1–4; mulligans "
      f"| `node simulator.js {deck_rel} --basics \"…\" --setups {best('jsall')[1]} --all --json` | {rate('jsall')} |")
print(f"| deckbox --simulate, 2 threads | as the 1-thread row | `{B} stats {deck_rel} --simulate {best('db2')[1]} --threads 2 -o json` | {rate('db2')} |")
print()
print("| machine | |\n| --- | --- |")
print(f"| nproc | {E['NPROC']} |\n| CPU | {E['CPU']} |\n| kernel | {E['KERNEL']} |\n| node | {E['NODEV']} |\n| python3 | {E['PYV'].split()[-1]} |")
print()
print("Rates are setups / whole-process wall seconds (process start, parsing, exact statistics and "
      "output included; nothing subtracted). Process times are the mean wall time of "
      f"{E['RUNS']} consecutive runs of the whole process. `--basics \"…\"` is `--basics \"{basics}\"`, "
      "checked against the Basics deckbox reports.\n")
r1, r2 = best("db1")[3], best("db2")[3]
print(f"Ratios (best rates): deckbox 1 thread / simulator.js every kind = {r1 / best('jsall')[3]:.1f}×; "
      f"deckbox 1 thread / simulator.js one target = {r1 / best('js1')[3]:.1f}×; "
      f"deckbox 2 threads / 1 thread = {r2 / r1:.2f}×. "
      f"Exact statistics: python3 process / deckbox process = {min(exact['python']) / min(exact['deckbox']):.2f}×.\n")
if best("db2")[4] / best("db2")[2] < 1.6:
    print(f"**Note:** the best 2-thread run kept only {best('db2')[4] / best('db2')[2]:.2f} cores busy: other work held "
          "the second core, so that row measures the machine's load, not deckbox's scaling.\n")
short = [f"{k} round {r} ({w:.2f} s)" for k in sim for r, n, w, c, l in sim[k] if w < float(E["MIN_WALL"])]
if short:
    print(f"**Note:** runs shorter than {E['MIN_WALL']} s: {', '.join(short)}.\n")
print("All rounds (wall seconds):\n")
for k in ["db1", "js1", "jsall", "db2"]:
    print(f"- {k}: " + ", ".join(f"{w:.3f} s ({n / w / 1e6:.2f} M/s, {c / w:.2f} cores, load {l:.2f})" for _, n, w, c, l in sim[k]))
for t in ["deckbox", "python"]:
    print(f"- exact {t}: " + ", ".join(ms(s) for s in exact[t]))
print()
print("## Do the numbers agree?\n")
print(f"- Single-shuffle opening hand, every card ({len(oh)} cards), deckbox `opening_hand_single_shuffle` vs "
      f"hypergeometric.py, to 4 decimals: {'all agree' if not bad_oh else 'DISAGREE: ' + ', '.join(x[0] for x in bad_oh)}.")
print(f"- All {len(pairs)} shared values (P(mulligan); per card single-shuffle hand, prized ≥1/all/expected, "
      f"by turn 1–4): {'all agree to 4 decimals' if not bad_all else str(len(bad_all)) + ' disagree: ' + ', '.join(x[0] for x in bad_all[:10])}; "
      f"largest difference {maxdiff:.1e}." + (f" Cards missing from the peer: {', '.join(missing)}." if missing else ""))
n, name, z = maxz_js("jsall")
print(f"- simulator.js (every kind, best run): {n} estimates, farthest from deckbox's exact kept-hand value is {name} at {z:+.2f} SE.")
n, name, z = maxz_js("js1")
print(f"- simulator.js (one target, best run): {n} estimates, farthest {name} at {z:+.2f} SE.")
n, name, z = maxz_db("db1")
print(f"- deckbox --simulate (1 thread, best run): {n} estimates, farthest {name} at {z:+.2f} SE.")
print("- Only deckbox gives the mulligan-conditioned (kept-hand) numbers exactly: `opening_hand`, `prized_*` and "
      "`by_turn` for the hand actually kept (e.g. Dreepy {:.2%} kept vs {:.2%} single shuffle; Drakloak {:.2%} vs {:.2%}), "
      "the distribution of the number of mulligans, and `--want` combinations. The calculator only has the "
      "single-shuffle values; the JS simulator approximates the kept-hand values with sampling noise."
      .format(exact_kept["Dreepy"]["opening_hand"], exact_kept["Dreepy"]["opening_hand_single_shuffle"],
              exact_kept["Drakloak"]["opening_hand"], exact_kept["Drakloak"]["opening_hand_single_shuffle"])
      if "Dreepy" in exact_kept and "Drakloak" in exact_kept else
      "- Only deckbox gives the mulligan-conditioned (kept-hand) numbers exactly.")
EOF
