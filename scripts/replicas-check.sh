#!/usr/bin/env bash
# The scale-out check (README "Several replicas on PostgreSQL"): two `serve` replicas on one
# throwaway PostgreSQL cluster, two remote `infrakata worker` processes (one per replica), a
# burst of N distinct submissions (default 300) posted alternately to both. Mid-burst replica B
# is killed with SIGKILL (its worker fails over to A, as it would through a load balancer), and
# a worker is killed with SIGKILL mid-job and started again. At the end every submission must
# have exactly one verdict, visible from the surviving replica, with no duplicated results; a
# live stream opened on A for a submission posted to B must have seen its verdict. Before the
# burst, a stdin/stdout kata is published through A: B must list it at once, and a submission
# posted to B must be graded by a remote worker that fetches the package by hash.
# Needs root (the sandbox; the cluster runs as `postgres`) and Debian's postgresql.
set -euo pipefail
cd "$(dirname "$0")/.."
N=${1:-300}
# `run` (the samples) keeps the drain short; MODE=submit grades every case and measures.
MODE=${MODE:-run}
# REPLICAS=1 serves everything from A; KILLS=0 kills nothing (for drain-time figures).
REPLICAS=${REPLICAS:-2}
KILLS=${KILLS:-1}
[ "$REPLICAS" = 2 ] || KILLS=0
BIN=${INFRAKATA_BIN:-target/release/infrakata}
[ -x "$BIN" ] || cargo build --release --bin infrakata
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
[ -n "$PGBIN" ] || { echo "replicas-check: no PostgreSQL server binaries (apt-get install postgresql)"; exit 1; }

work=$(mktemp -d /tmp/infrakata-replicas.XXXX)
chown postgres "$work"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

PG=$(free_port)
runuser -u postgres -- "$PGBIN/initdb" -D "$work/data" -A trust -U postgres --no-sync >/dev/null
runuser -u postgres -- "$PGBIN/pg_ctl" -D "$work/data" -l "$work/pg.log" -w \
  -o "-p $PG -k $work -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
psql -q -h 127.0.0.1 -p "$PG" -U postgres -c "CREATE DATABASE infrakata"
DB="postgres://postgres@127.0.0.1:$PG/infrakata"
sql() { psql -qtAX -h 127.0.0.1 -p "$PG" -U postgres -d infrakata -c "$1"; }

TOKEN=wk_replicas_check_$RANDOM$RANDOM
A=$(free_port); B=$(free_port)
# Replicas start together: migrations and the catalogue sync must not collide.
"$BIN" serve --addr "127.0.0.1:$A" --db "$DB" --workers 0 --worker-token "$TOKEN" >"$work/a.log" 2>&1 &
pid_a=$!; pids+=("$pid_a")
if [ "$REPLICAS" = 2 ]; then
  "$BIN" serve --addr "127.0.0.1:$B" --db "$DB" --workers 0 --worker-token "$TOKEN" >"$work/b.log" 2>&1 &
  pid_b=$!; pids+=("$pid_b")
else
  B=$A
fi
for port in "$A" "$B"; do
  for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/health" >/dev/null && break; sleep 0.2; done
done

# The rate limit allows a burst of 10 per user: 10 submissions per learner.
users=$(( (N + 9) / 10 ))
tokens=()
for u in $(seq "$users"); do
  tokens+=("$("$BIN" user add "learner$u" --db "$DB" | tail -n 1)")
done

worker() { "$BIN" worker --server "http://127.0.0.1:$1" --token "$TOKEN" --parallel 1 >>"$work/w$2.log" 2>&1 & echo $!; }
w1=$(worker "$A" 1); pids+=("$w1")
w2=$(worker "$B" 2); pids+=("$w2")

# A new stdin/stdout kata, published through A from a folder outside the checkout.
admin=$("$BIN" user add instructor --role admin --db "$DB" | tail -n 1)
io_learner=$("$BIN" user add io-learner --db "$DB" | tail -n 1)
cp -r graders/tests/io/pair-sums "$work/pair-sums"
"$BIN" kata publish "$work/pair-sums" --server "http://127.0.0.1:$A" --token "$admin" \
  >"$work/publish.log" 2>&1 || { cat "$work/publish.log"; echo "FAIL publishing pair-sums through A"; exit 1; }
curl -sf "http://127.0.0.1:$B/api/katas" | grep -q '"pair-sums"' ||
  { echo "FAIL replica B does not list pair-sums"; exit 1; }
io_verdict() { # source file → the verdict of a submit posted to B
  local id v
  id=$(jq -n --rawfile s "$1" '{kata: "pair-sums", mode: "submit", source: $s}' |
    curl -sf -X POST "http://127.0.0.1:$B/api/submissions" -H "Authorization: Bearer $io_learner" \
      -H 'Content-Type: application/json' --data @- | jq -r .id)
  for _ in $(seq 600); do
    v=$(curl -sf "http://127.0.0.1:$B/api/submissions/$id" -H "Authorization: Bearer $io_learner" | jq -r '.verdict // empty')
    [ -n "$v" ] && { echo "$v"; return; }
    sleep 0.5
  done
  echo "no verdict"
}
io_accepted=$(io_verdict "$work/pair-sums/reference.rs")
io_wrong=$(io_verdict "$work/pair-sums/wrong/overflow.rs")

reference=$(cat katas/problems/fast-power/reference.rs)
post() { # port, token, i → id
  jq -n --arg m "$MODE" --arg s "$reference
// submission $3" '{kata: "fast-power", mode: $m, source: $s}' |
    curl -sf -X POST "http://127.0.0.1:$1/api/submissions" -H "Authorization: Bearer $2" \
      -H 'Content-Type: application/json' --data @- | jq -r .id
}

start=$(date +%s.%N)
ids=()
for i in $(seq 0 $((N - 1))); do
  port=$A; [ $((i % 2)) = 1 ] && port=$B
  # B is gone after half the burst: its share goes to A.
  [ "$KILLS" = 1 ] && [ "$i" -ge $((N / 2)) ] && port=$A
  ids+=("$(post "$port" "${tokens[$((i / 10))]}" "$i")")
  if [ "$i" = 1 ]; then
    # A live stream on A for a submission B took.
    curl -sN -m 600 "http://127.0.0.1:$A/api/submissions/${ids[1]}/events" \
      -H "Authorization: Bearer ${tokens[0]}" >"$work/sse" &
    pids+=("$!")
  fi
  if [ "$KILLS" = 1 ] && [ "$i" = $((N / 2 - 1)) ]; then
    kill -9 "$pid_b"
    echo "replicas-check: killed replica B after $((i + 1)) submissions"
    kill -9 "$w2"; w2=$(worker "$A" 2); pids+=("$w2")
  fi
done
echo "replicas-check: posted $N submissions in $(echo "$(date +%s.%N) - $start" | bc) s"

if [ "$KILLS" = 1 ]; then
  # A worker dies mid-job (SIGKILL while it holds a lease) and comes back.
  for _ in $(seq 600); do
    [ "$(sql "SELECT COUNT(*) FROM jobs WHERE state = 'leased' AND worker_id IS NOT NULL")" -gt 0 ] && break
    sleep 0.1
  done
  kill -9 "$w1"
  echo "replicas-check: killed worker 1 mid-job"
  sleep 1
  w1=$(worker "$A" 1); pids+=("$w1")
fi

burst="kata = 'fast-power'"
deadline=$(( $(date +%s) + 3600 ))
while [ "$(sql "SELECT COUNT(*) FROM submissions WHERE $burst AND state = 'done'")" -lt "$N" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || { echo "replicas-check: not drained in an hour"; exit 1; }
  sleep 2
done
drain=$(echo "$(date +%s.%N) - $start" | bc)

fail=0
check() { if [ "$2" = "$3" ]; then echo "ok   $1 ($2)"; else echo "FAIL $1: $2, expected $3"; fail=1; fi; }
check "pair-sums published through A, its reference graded through B" "$io_accepted" accepted
check "pair-sums's wrong/overflow.rs graded through B" "$io_wrong" wrong_answer
check "submissions stored" "$(sql "SELECT COUNT(*) FROM submissions WHERE $burst")" "$N"
check "jobs done" "$(sql "SELECT COUNT(*) FROM jobs j JOIN submissions s ON s.id = j.submission_id WHERE j.state = 'done' AND s.$burst")" "$N"
# Any submission not accepted is listed, so that a failure says which and how it ended.
sql "SELECT id, state, verdict FROM submissions WHERE $burst AND verdict IS DISTINCT FROM 'accepted'" |
  sed 's/^/not accepted: /'
check "accepted" "$(sql "SELECT COUNT(*) FROM submissions WHERE $burst AND verdict = 'accepted'")" "$N"
check "duplicated case results" "$(sql "SELECT COUNT(*) FROM (SELECT submission_id, position FROM case_results GROUP BY 1, 2 HAVING COUNT(*) > 1) d")" 0
check "submissions with no cases" "$(sql "SELECT COUNT(*) FROM submissions s WHERE s.$burst AND NOT EXISTS (SELECT 1 FROM case_results c WHERE c.submission_id = s.id)")" 0
seen=0
for id in "${ids[@]}"; do
  v=$(curl -sf "http://127.0.0.1:$A/api/submissions/$id" -H "Authorization: Bearer ${tokens[0]}" -o /dev/null -w '%{http_code}' || true)
  # Only learner1's own are visible to them; the rest are checked by their owners below.
  [ "$v" = 200 ] && seen=$((seen + 1))
done
check "learner1's submissions visible from A" "$seen" 10
check "the stream on A saw B's submission's verdict" "$(grep -c '^event: verdict' "$work/sse" || true)" 1
echo "replicas-check: re-leased jobs (a lease lost to a dead worker or replica): $(sql "SELECT COUNT(*) FROM jobs WHERE attempts > 1")"
echo "replicas-check: $N submissions drained in $drain s with $REPLICAS replica(s) and 2 workers (kills: $KILLS)"
exit "$fail"
