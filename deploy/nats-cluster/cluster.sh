#!/usr/bin/env bash
# A three-node NATS cluster with JetStream on loopback ports, for demos and tests of ledgerd's
# JetStream backend (R3: the log survives the loss of any one node).
#
#   deploy/nats-cluster/cluster.sh start        start the three nodes, wait until JetStream is ready
#   deploy/nats-cluster/cluster.sh stop         stop them (their stores stay in the data directory)
#   deploy/nats-cluster/cluster.sh stop-node N  stop node N (1, 2 or 3), as a crash would (SIGKILL)
#   deploy/nats-cluster/cluster.sh start-node N start node N again on its store
#   deploy/nats-cluster/cluster.sh urls         print the client URLs, comma-separated, for --nats-url
#
# Environment:
#   NATS_CLUSTER_DIR   data directory (default ./nats-cluster-data): configs, stores, logs, pids
#   NATS_CLUSTER_PORT  first client port (default 14222): clients on PORT..PORT+2, routes on
#                      PORT+10..PORT+12, monitoring on PORT+20..PORT+22
#   NATS_SERVER        the nats-server binary, 2.12 or newer (default: .ci/venv/bin/nats-server,
#                      then nats-server on PATH)
set -euo pipefail

here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
dir="${NATS_CLUSTER_DIR:-$PWD/nats-cluster-data}"
base="${NATS_CLUSTER_PORT:-14222}"
if [ -z "${NATS_SERVER:-}" ]; then
  if [ -x "$root/.ci/venv/bin/nats-server" ]; then NATS_SERVER="$root/.ci/venv/bin/nats-server"; else NATS_SERVER=nats-server; fi
fi

client_port() { echo $((base + $1 - 1)); }
route_port() { echo $((base + 9 + $1)); }
http_port() { echo $((base + 19 + $1)); }

write_config() {
  local n=$1
  mkdir -p "$dir/n$n"
  cat >"$dir/n$n.conf" <<EOF
server_name: n$n
listen: 127.0.0.1:$(client_port "$n")
http: 127.0.0.1:$(http_port "$n")
jetstream {
  store_dir: "$dir/n$n"
  # Every write fsynced before it is acknowledged, on each replica.
  sync_interval: always
}
cluster {
  name: ledger
  listen: 127.0.0.1:$(route_port "$n")
  routes: [
    nats-route://127.0.0.1:$(route_port 1)
    nats-route://127.0.0.1:$(route_port 2)
    nats-route://127.0.0.1:$(route_port 3)
  ]
}
EOF
}

start_node() {
  local n=$1
  write_config "$n"
  "$NATS_SERVER" -c "$dir/n$n.conf" >>"$dir/n$n.log" 2>&1 &
  echo $! >"$dir/n$n.pid"
}

stop_node() {
  local n=$1 signal=${2:-KILL}
  if [ -f "$dir/n$n.pid" ]; then
    local pid
    pid="$(cat "$dir/n$n.pid")"
    kill "-$signal" "$pid" 2>/dev/null || true
    while kill -0 "$pid" 2>/dev/null; do sleep 0.05; done
    rm -f "$dir/n$n.pid"
  fi
}

# Waits until node N's monitoring endpoint says JetStream is healthy (60 s at most).
wait_healthy() {
  local n=$1
  for _ in $(seq 1 600); do
    if curl -fsS "http://127.0.0.1:$(http_port "$n")/healthz" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  echo "node n$n did not become healthy; see $dir/n$n.log" >&2
  return 1
}

case "${1:-}" in
  start)
    mkdir -p "$dir"
    for n in 1 2 3; do start_node "$n"; done
    for n in 1 2 3; do wait_healthy "$n"; done
    echo "NATS cluster up: $("$0" urls)"
    ;;
  stop)
    for n in 1 2 3; do stop_node "$n" TERM; done
    ;;
  stop-node)
    stop_node "${2:?which node: 1, 2 or 3}" KILL
    ;;
  start-node)
    start_node "${2:?which node: 1, 2 or 3}"
    wait_healthy "$2"
    ;;
  urls)
    echo "nats://127.0.0.1:$(client_port 1),nats://127.0.0.1:$(client_port 2),nats://127.0.0.1:$(client_port 3)"
    ;;
  *)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'
    exit 2
    ;;
esac
