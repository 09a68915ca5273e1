#!/usr/bin/env bash
# Installs the pinned peers (@tanstack/db 0.15.2, @rocicorp/zero 1.9.0) into a scratch folder with
# `npm ci --ignore-scripts` and runs the workloads, one child process per run, each capped by a
# timeout. Prints one JSON line per figure on stdout (see README.md); diagnostics go to stderr.
# Per (rows, workload): first the cold runs, --cold rounds of one fresh process per engine of
# --cold-engines (interleaved: rivulet, zero, tanstack, rivulet, ...), one build each; then one
# memory process per engine of --cold-engines (--memory 0: none); then the peers' warm run (one
# process per engine of --engines: --hydrate-runs builds, then the update mixes; --warm 0: none).
# Rivulet's cold and memory runs are a fresh JVM each (default flags + -Xmx4g); its warm lines
# come from QueryWorkloads, given to PeerRunner with --rivulet.
#
#   run-peers.sh [--engines tanstack,zero] [--workloads W1,W2,W3,W5,W6[,W4]] [--rows 100000[,1000000]]
#                [--warmup 10000] [--updates 50000] [--hydrate-runs 20] [--seed N] [--timeout 300]
#                [--cold 3] [--cold-engines rivulet,zero,tanstack] [--memory 1] [--warm 1]
#
# Environment: RIVULET_PEERS_DIR (scratch folder, default rivulet-bench/.peers), PEER_NODE_ENV
# (default production), PEER_NODE_OPTS (extra node flags, default --max-old-space-size=8192),
# RIVULET_JAR (default rivulet-bench/target/rivulet-bench.jar), RIVULET_JAVA_OPTS (default -Xmx4g),
# ZERO_FLUSH=1 (Zero flushes its view per update; reported as engine "zero_flush").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${RIVULET_PEERS_DIR:-$HERE/../.peers}
ENGINES=tanstack,zero WORKLOADS=W1,W2,W3,W5,W6 ROWS=100000
WARMUP=10000 UPDATES=50000 HYDRATE_RUNS=20 SEED=20240601 TIMEOUT=300
COLD=3 COLD_ENGINES=rivulet,zero,tanstack MEMORY=1 WARM=1
RIVULET_JAR=${RIVULET_JAR:-$HERE/../target/rivulet-bench.jar}
while [ $# -gt 0 ]; do
  case "$1" in
    --engines) ENGINES=$2 ;; --workloads) WORKLOADS=$2 ;; --rows) ROWS=${2//_/} ;;
    --warmup) WARMUP=$2 ;; --updates) UPDATES=$2 ;; --hydrate-runs) HYDRATE_RUNS=$2 ;;
    --seed) SEED=$2 ;; --timeout) TIMEOUT=$2 ;;
    --cold) COLD=$2 ;; --cold-engines) COLD_ENGINES=$2 ;; --memory) MEMORY=$2 ;; --warm) WARM=$2 ;;
    -h|--help) sed -n 2,22p "$0" >&2; exit 0 ;;
    *) echo "run-peers.sh: unknown argument $1" >&2; exit 2 ;;
  esac
  shift 2
done

mkdir -p "$SCRATCH"
installed() { node -p "require('$SCRATCH/node_modules/$1/package.json').version" 2>/dev/null || true; }
if ! cmp -s "$HERE/package-lock.json" "$SCRATCH/package-lock.json" \
    || [ "$(installed @tanstack/db)" != 0.15.2 ] || [ "$(installed @rocicorp/zero)" != 1.9.0 ]; then
  echo "run-peers.sh: installing pinned peers into $SCRATCH" >&2
  cp "$HERE/package.json" "$HERE/package-lock.json" "$SCRATCH/"
  (cd "$SCRATCH" && npm ci --ignore-scripts --no-audit --no-fund --loglevel=error) >&2
fi
cp "$HERE"/gen.mjs "$HERE"/run.mjs "$HERE"/tanstack.mjs "$HERE"/zero.mjs "$SCRATCH/"

line() { # engine workload rows metric value [detail]
  [ "$1" = zero ] && [ "${ZERO_FLUSH:-}" = 1 ] && set -- zero_flush "${@:2}"
  printf '{"engine":"%s","workload":"%s","rows":%s,"metric":"%s","value":%s%s}\n' \
    "$1" "$2" "$3" "$4" "$5" "${6:+,\"detail\":\"$6\"}"
}
# One process of engine $1 on workload $2 at $3 rows in mode $4 (warm, cold, memory), under the timeout.
run() {
  local e=$1 w=$2 rows=$3 mode=$4 rc=0 check=correct
  [ "$mode" = warm ] || check=correct_$mode
  if [ "$e" = rivulet ]; then
    if [ ! -f "$RIVULET_JAR" ]; then
      line "$e" "$w" "$rows" "$check" false "no $RIVULET_JAR (mvn -q -o -DskipTests package)"
      return
    fi
    timeout --kill-after=10 "$TIMEOUT" java ${RIVULET_JAVA_OPTS:--Xmx4g} -cp "$RIVULET_JAR" \
      dev.rivulet.bench.query.QueryWorkloads "$w" --rows "$rows" --seed "$SEED" "--$mode" || rc=$?
  else
    NODE_ENV=${PEER_NODE_ENV:-production} timeout --kill-after=10 "$TIMEOUT" \
      node --expose-gc ${PEER_NODE_OPTS:---max-old-space-size=8192} run.mjs --engine "$e" \
      --workload "$w" --rows "$rows" --warmup "$WARMUP" --updates "$UPDATES" \
      --hydrate-runs "$HYDRATE_RUNS" --seed "$SEED" --mode "$mode" || rc=$?
  fi
  case $rc in
    0|1) ;;  # 1: the run printed its failed check itself
    124|137) line "$e" "$w" "$rows" timeout "$TIMEOUT" "$mode run killed after $TIMEOUT s" ;;
    *) line "$e" "$w" "$rows" "$check" false "$e exited with status $rc" ;;
  esac
}
unsupported() { [ "$1" = zero ] && [ "$2" = W2 ]; }

cd "$SCRATCH"
for rows in ${ROWS//,/ }; do
  for w in ${WORKLOADS//,/ }; do
    if [ "$w" = W2 ] && [[ ",$ENGINES,$COLD_ENGINES," == *,zero,* ]]; then
      line zero "$w" "$rows" unsupported true "Zero has no aggregates"
    fi
    for ((rep = 1; rep <= COLD; rep++)); do
      for e in ${COLD_ENGINES//,/ }; do
        unsupported "$e" "$w" || run "$e" "$w" "$rows" cold
      done
    done
    if [ "$MEMORY" = 1 ] && [ "$w" != W4 ]; then
      for e in ${COLD_ENGINES//,/ }; do
        unsupported "$e" "$w" || run "$e" "$w" "$rows" memory
      done
    fi
    [ "$WARM" = 1 ] || continue
    for e in ${ENGINES//,/ }; do
      unsupported "$e" "$w" || run "$e" "$w" "$rows" warm
    done
  done
done
