#!/usr/bin/env bash
# Installs the pinned peers (@tanstack/db 0.15.2, @rocicorp/zero 1.9.0) into a scratch folder with
# `npm ci --ignore-scripts` and runs the peer workloads under Node, one child process per
# (rows, workload, engine), each capped by a timeout. Prints one JSON line per figure on stdout
# (see README.md); npm and Node diagnostics go to stderr.
#
#   run-peers.sh [--engines tanstack,zero] [--workloads W1,W2,W3[,W4]] [--rows 100000[,1000000]]
#                [--warmup 10000] [--updates 50000] [--hydrate-runs 20] [--seed N] [--timeout 300]
#
# Environment: RIVULET_PEERS_DIR (scratch folder, default rivulet-bench/.peers), PEER_NODE_ENV
# (default production), PEER_NODE_OPTS (extra node flags, default --max-old-space-size=8192),
# ZERO_FLUSH=1 (Zero flushes its view per update; reported as engine "zero_flush").
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH=${RIVULET_PEERS_DIR:-$HERE/../.peers}
ENGINES=tanstack,zero WORKLOADS=W1,W2,W3 ROWS=100000
WARMUP=10000 UPDATES=50000 HYDRATE_RUNS=20 SEED=20240601 TIMEOUT=300
while [ $# -gt 0 ]; do
  case "$1" in
    --engines) ENGINES=$2 ;; --workloads) WORKLOADS=$2 ;; --rows) ROWS=${2//_/} ;;
    --warmup) WARMUP=$2 ;; --updates) UPDATES=$2 ;; --hydrate-runs) HYDRATE_RUNS=$2 ;;
    --seed) SEED=$2 ;; --timeout) TIMEOUT=$2 ;;
    -h|--help) sed -n 2,12p "$0" >&2; exit 0 ;;
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
cd "$SCRATCH"
for rows in ${ROWS//,/ }; do
  for w in ${WORKLOADS//,/ }; do
    for e in ${ENGINES//,/ }; do
      if [ "$e" = zero ] && [ "$w" = W2 ]; then
        line "$e" "$w" "$rows" unsupported true "Zero has no aggregates"
        continue
      fi
      rc=0
      NODE_ENV=${PEER_NODE_ENV:-production} timeout --kill-after=10 "$TIMEOUT" \
        node --expose-gc ${PEER_NODE_OPTS:---max-old-space-size=8192} run.mjs --engine "$e" \
        --workload "$w" --rows "$rows" --warmup "$WARMUP" --updates "$UPDATES" \
        --hydrate-runs "$HYDRATE_RUNS" --seed "$SEED" || rc=$?
      case $rc in
        0|1) ;;  # 1: the run printed "correct":false itself
        124|137) line "$e" "$w" "$rows" timeout "$TIMEOUT" "killed after $TIMEOUT s" ;;
        *) line "$e" "$w" "$rows" correct false "node exited with status $rc" ;;
      esac
    done
  done
done
