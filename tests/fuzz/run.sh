#!/bin/sh
# make fuzz SECONDS=N [TARGETS="envelope plan"]: builds the AFL++ driver with afl.rs on the
# stable toolchain, runs each fuzz target for N seconds from its committed seed corpus
# (tests/fuzz/corpus/TARGET), prints executions, coverage and findings per target, and copies
# every crash into tests/fuzz/regressions/TARGET/, which `cargo test -p qa-fuzz` replays.
set -eu
seconds=${1:-60}
targets=${2:-}
cd "$(dirname "$0")/../.."
root=$(pwd)
out=$root/target/fuzz
# An instrumented build of its own, so the ordinary target/ is not rebuilt afterwards.
export CARGO_TARGET_DIR=$root/target/afl

command -v cargo-afl >/dev/null 2>&1 || cargo install cargo-afl --locked
# afl.rs builds AFL++ (afl-fuzz and its LLVM runtime) once per toolchain.
cargo afl fuzz -h 2>&1 | grep -q "afl-fuzz" || cargo afl config --build
cargo afl build --release -p qa-fuzz --features afl --bin qa-fuzz-afl
driver=$CARGO_TARGET_DIR/release/qa-fuzz-afl
[ -n "$targets" ] || targets=$("$driver" 2>&1 | sed -n 's/.*(one of: \(.*\))/\1/p' | tr -d ,)

# No UI on a pipe, no CPU binding on a shared machine, no core-dump set-up needed.
export AFL_NO_UI=1 AFL_NO_AFFINITY=1 AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
mkdir -p "$out"
summary=$out/summary.tsv
printf 'target\tseconds\texecs\texecs/s\tedges\tcoverage\tcorpus\tcrashes\thangs\n' > "$summary"
for t in $targets; do
    rm -rf "${out:?}/$t"
    echo "fuzz: $t for ${seconds}s"
    cargo afl fuzz -V "$seconds" -t 2000 -i "tests/fuzz/corpus/$t" -o "$out/$t" -- "$driver" "$t" \
        > "$out/$t.log" 2>&1 || { tail -20 "$out/$t.log"; exit 1; }
    stats=$out/$t/default/fuzzer_stats
    get() { sed -n "s/^$1 *: *//p" "$stats"; }
    crashes=0
    for c in "$out/$t/default/crashes"/id:*; do
        [ -f "$c" ] || continue
        mkdir -p "tests/fuzz/regressions/$t"
        cp "$c" "tests/fuzz/regressions/$t/crash-$(sha1sum "$c" | cut -c1-16)"
        crashes=$((crashes + 1))
    done
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$t" "$seconds" "$(get execs_done)" \
        "$(get execs_per_sec)" "$(get edges_found)/$(get total_edges)" "$(get bitmap_cvg)" \
        "$(get corpus_count)" "$crashes" "$(get saved_hangs)" >> "$summary"
done
column -t -s "$(printf '\t')" "$summary"
if ls tests/fuzz/regressions/*/crash-* >/dev/null 2>&1; then
    echo "fuzz: crashes are in tests/fuzz/regressions/ (replayed by: cargo test -p qa-fuzz)"
fi
