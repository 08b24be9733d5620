#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 600), one after another, after seeding
# the corpora, each with its dictionary (fuzz/dict/TARGET.dict) where it has one. Needs a nightly toolchain and cargo-fuzz (`cargo install cargo-fuzz`).
# Usage: fuzz/run.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")"
seconds="${1:-600}"
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(check names from_tcgdex from_pokemontcg format fmt json query search editor git assist mcp web)
fi
python3 seed.py
cargo +nightly fuzz build -s none
for target in "${targets[@]}"; do
    echo "== $target: ${seconds}s"
    dict=()
    if [ -f "dict/$target.dict" ]; then
        dict=(-dict="dict/$target.dict")
    fi
    cargo +nightly fuzz run -s none "$target" "corpus/$target" -- \
        "${dict[@]}" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1
done
