#!/bin/sh
# Three mockgql nodes on loopback for development (`make cluster`).
#
#   node  HTTP            memberlist       data
#   1     127.0.0.1:8081  127.0.0.1:7947   data/cluster/node1 (seeds the demo)
#   2     127.0.0.1:8082  127.0.0.1:7948   data/cluster/node2 (--no-demo)
#   3     127.0.0.1:8083  127.0.0.1:7949   data/cluster/node3 (--no-demo)
#
# Node 1 starts first and seeds the demo; nodes 2 and 3 then join it. Logs
# go to data/cluster/nodeN.log, fresh each run. Ctrl-C (or SIGTERM) stops
# all three gracefully. A node the cluster declares dead exits with code 3
# and is started again here, as a supervisor would.
#
# Usage: deploy/cluster.sh [path/to/mockgql]   (default: bin/mockgql)
# Settings for every node: MGQ_* variables, e.g. MGQ_LOG_LEVEL=debug.
set -u

BIN=${1:-bin/mockgql}
DIR=data/cluster
FENCED=3 # mockgql's exit code when the cluster declared it dead

[ -x "$BIN" ] || { echo "cluster.sh: $BIN not found; run make build" >&2; exit 1; }
mkdir -p "$DIR"

# One JWT secret for all nodes, or a session signed by one is refused by the
# others. Kept so sessions survive a restart of the cluster.
if [ -z "${MGQ_JWT_SECRET:-}" ]; then
	if [ ! -s "$DIR/jwt.secret" ]; then
		(umask 077 && od -An -tx1 -N32 /dev/urandom | tr -d ' \n' >"$DIR/jwt.secret")
	fi
	MGQ_JWT_SECRET=$(cat "$DIR/jwt.secret")
	export MGQ_JWT_SECRET
fi

# node N EXTRA-FLAGS...: runs node N in the background, again after each
# exit with the fenced code; SIGTERM to it is passed on to mockgql.
node() {
	n=$1
	shift
	: >"$DIR/node$n.log"
	(
		child=
		trap 'trap - TERM; [ -n "$child" ] && kill -TERM "$child" 2>/dev/null; wait; exit 0' TERM
		trap '' INT # a terminal's Ctrl-C reaches mockgql itself
		while :; do
			"$BIN" serve --node "node$n" \
				--http "127.0.0.1:808$n" --base-url "http://127.0.0.1:808$n" \
				--cluster-bind "127.0.0.1:794$((n + 6))" \
				--data "$DIR/node$n" "$@" >>"$DIR/node$n.log" 2>&1 &
			child=$!
			wait "$child"
			code=$?
			child=
			[ "$code" -eq "$FENCED" ] || exit "$code"
			echo "cluster.sh: node $n was declared dead (exit $FENCED); restarting it" >&2
			sleep 1
		done
	) &
	last=$!
	pids="$pids $last"
}

# up N PID: waits until node N (run by PID) logs that it serves (node 1:
# after seeding the demo), at most 150 s (the demo's own limit is 2 minutes).
up() {
	i=0
	while [ "$i" -lt 750 ]; do
		grep -q '"msg":"mockgql serving"' "$DIR/node$1.log" && return 0
		kill -0 "$2" 2>/dev/null || { echo "cluster.sh: node $1 exited; see $DIR/node$1.log" >&2; return 1; }
		sleep 0.2
		i=$((i + 1))
	done
	echo "cluster.sh: node $1 is not serving yet; see $DIR/node$1.log" >&2
	return 1
}

# stop [CODE]: stops every node and exits.
stopping=
stop() {
	[ -n "$stopping" ] && return
	stopping=1
	echo
	echo "stopping the cluster..."
	# shellcheck disable=SC2086 # pids is a list of numbers
	kill -TERM $pids 2>/dev/null
	wait
	echo "stopped"
	exit "${1:-0}"
}

pids=
trap stop INT TERM

node 1
up 1 "$last" || stop 1
node 2 --join 127.0.0.1:7947 --no-demo
up 2 "$last"
node 3 --join 127.0.0.1:7947 --no-demo
up 3 "$last"
demo=$(grep -m1 -o 'http://[^ ]*/mock/[^ ]*' "$DIR/node1.log")
cat <<EOF
mockgql cluster of three (logs: $DIR/node1.log, node2.log, node3.log):
  http://127.0.0.1:8081
  http://127.0.0.1:8082
  http://127.0.0.1:8083
Demo runtime (any node answers it): ${demo:-see $DIR/node1.log}
Ctrl-C stops all three.
EOF

# Sleep until a signal (stop exits) or until no node is left.
wait
echo "cluster.sh: every node has exited; see $DIR/nodeN.log" >&2
exit 1
