#!/usr/bin/env bash
# scripts/lib/dev-stop-test.sh — proves that scripts/dev stops everything it started, every way it can
# be stopped, and keeps the services' last log lines. scripts/test runs it as its dev-stop stage.
#
# It runs scripts/dev three times on one throw-away data folder and free ports (its own Postgres and
# Redis; the UI already built in PRESSROOM_UI_DIR, else ui/dist-e2e of scripts/test's ui-build stage,
# else ui/dist), and stops each run a different way:
#   1. Ctrl+C        SIGINT to the script's process group, as a terminal sends it
#   2. SIGTERM       to the script alone
#   3. SIGTERM       to the script's process group
# After each stop it checks that scripts/dev exited (130 or 143) within STOP_LIMIT seconds, that no
# process it started is left (its descendants, and Postgres, which pg_ctl detaches), that the ports are
# free, and that the logs of bff, worker, renderer, Redis and Postgres end with their shutdown lines.
set -euo pipefail
# Job control: scripts/dev gets a process group of its own, and SIGINT is not ignored in it (a
# background job of a non-interactive shell would ignore it, and so could not be stopped with Ctrl+C).
set -m

LIB="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
# shellcheck source=common.sh
source "$LIB/common.sh"
# shellcheck source=net.sh
source "$LIB/net.sh"

READY_LIMIT=600 # the first run initialises Postgres, builds the binaries and seeds the demo data
STOP_LIMIT=120  # far above a clean stop (seconds), far below a hang

DIR="$(mktemp -d "${TMPDIR:-/tmp}/pressroom-dev-stop.XXXXXX")"
chmod 755 "$DIR" # the postgres system user must reach its cluster folder when we are root
DATA="$DIR/data"
DEV_PID=""
FAILURES=0

fail() { err "$*"; FAILURES=$((FAILURES + 1)); }

# stat_fields PID: the fields of /proc/PID/stat after the command name, into the array STAT
# (STAT[1] is the parent, STAT[19] the start time); false when the process is gone.
STAT=()
stat_fields() {
  local line
  { read -r line <"/proc/$1/stat"; } 2>/dev/null || return 1
  read -r -a STAT <<<"${line##*) }"
}

# descendants PID: every process below PID, from /proc (parents before children).
descendants() {
  local -A children=()
  local dir pid
  for dir in /proc/[0-9]*; do
    pid="${dir#/proc/}"
    stat_fields "$pid" || continue
    children[${STAT[1]}]+="$pid "
  done
  local queue=("$1") p c
  while ((${#queue[@]} > 0)); do
    p="${queue[0]}"
    queue=("${queue[@]:1}")
    for c in ${children[$p]:-}; do
      printf '%s\n' "$c"
      queue+=("$c")
    done
  done
}

# identity PID: "pid:start-time", which another process reusing the pid does not share.
identity() {
  stat_fields "$1" && printf '%s:%s\n' "$1" "${STAT[19]}"
}

# still_running IDENTITY: true while that very process runs (not a zombie).
still_running() {
  local pid="${1%%:*}"
  proc_alive "$pid" && [[ "$(identity "$pid")" == "$1" ]]
}

# last_line FILE: its last non-empty line.
last_line() { grep -v '^[[:space:]]*$' "$1" 2>/dev/null | tail -n1; }

# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
  local rc=$?
  set +e
  # Whatever a failed run left: the script's group, Postgres (stopped, not killed: its backends
  # would outlive a killed postmaster), then the other processes it started.
  if [[ -n "$DEV_PID" ]] && proc_alive "$DEV_PID"; then
    kill -TERM "$DEV_PID" 2>/dev/null
    wait_pid_gone "$DEV_PID" 60 || kill -KILL -- "-$DEV_PID" 2>/dev/null
  fi
  if [[ -f "$DATA/postgres/data/postmaster.pid" ]]; then
    # shellcheck source=postgres.sh
    source "$LIB/postgres.sh"
    pg_stop "$DATA/postgres"
  fi
  local id
  for id in ${LEFT:-}; do still_running "$id" && kill -KILL "${id%%:*}" 2>/dev/null; done
  if [[ "${PRESSROOM_KEEP_TEST_DATA:-}" == 1 ]]; then info "kept $DIR"; else rm -rf "$DIR"; fi
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

if [[ -z "${PRESSROOM_UI_DIR:-}" ]]; then
  PRESSROOM_UI_DIR="$PRESSROOM_ROOT/ui/dist"
  if [[ -f "$PRESSROOM_ROOT/ui/dist-e2e/index.html" ]]; then PRESSROOM_UI_DIR="$PRESSROOM_ROOT/ui/dist-e2e"; fi
fi
export PRESSROOM_UI_DIR
[[ -f "$PRESSROOM_UI_DIR/index.html" ]] ||
  die "no built UI in $PRESSROOM_UI_DIR: run npm run build in ui/ (or scripts/test's ui-build stage) first"

unset PRESSROOM_DATABASE_URL PRESSROOM_REDIS_ADDR PRESSROOM_REDIS_PASSWORD PRESSROOM_ENV
pg_port="" redis_port="" http_port="" renderer_port="" store_port=""
free_port pg_port
free_port redis_port
free_port http_port
free_port renderer_port
free_port store_port
export PRESSROOM_DATA_DIR="$DATA" PRESSROOM_PG_PORT="$pg_port" PRESSROOM_REDIS_PORT="$redis_port" \
  PRESSROOM_HTTP_ADDR="127.0.0.1:$http_port" PRESSROOM_RENDERER_HTTP_ADDR="127.0.0.1:$renderer_port" \
  PRESSROOM_STOREFRONT_ADDR="127.0.0.1:$store_port" \
  PRESSROOM_CHROME_PROFILE_DIR="$DIR/chrome" PRESSROOM_DEV_SKIP_UI_BUILD=1 NO_COLOR=1

LEFT=""
run=0
for way in "INT group Ctrl+C" "TERM script SIGTERM-to-the-script" "TERM group SIGTERM-to-the-group"; do
  read -r sig target label <<<"$way"
  run=$((run + 1))
  out="$DIR/dev-$run.out"
  log "scripts/dev run $run: stop with $label"
  "$PRESSROOM_ROOT/scripts/dev" >"$out" 2>&1 </dev/null &
  DEV_PID=$!
  ready=""
  for ((i = 0; i < READY_LIMIT; i++)); do
    if grep -q 'Pressroom is running' "$out"; then ready=1; break; fi
    proc_alive "$DEV_PID" || break
    sleep 1
  done
  if [[ -z "$ready" ]]; then
    tail_log "$out" 40
    if proc_alive "$DEV_PID"; then die "scripts/dev (run $run) did not become ready within ${READY_LIMIT}s"; fi
    DEV_PID=""
    die "scripts/dev (run $run) exited before it was ready"
  fi
  # Everything it started: its descendants (services, log printers, Redis, Chromium) and Postgres.
  ids=()
  for pid in $(descendants "$DEV_PID") "$(head -n1 "$DATA/postgres/data/postmaster.pid")"; do
    if id="$(identity "$pid")"; then ids+=("$id"); fi
  done
  LEFT="${ids[*]}"
  info "ready; $((${#ids[@]})) processes started; sending SIG$sig to the $target"
  start=$SECONDS
  if [[ "$target" == group ]]; then kill "-$sig" -- "-$DEV_PID"; else kill "-$sig" "$DEV_PID"; fi
  if ! wait_pid_gone "$DEV_PID" "$STOP_LIMIT"; then
    tail_log "$out" 20
    die "scripts/dev (run $run, $label) did not stop within ${STOP_LIMIT}s"
  fi
  rc=0
  wait "$DEV_PID" || rc=$?
  DEV_PID=""
  info "scripts/dev exited $rc after $((SECONDS - start))s"
  if ((rc != 130 && rc != 143)); then
    tail_log "$out" 20
    fail "run $run ($label): scripts/dev exited $rc; want 130 (interrupted) or 143 (terminated)"
  fi
  for id in "${ids[@]}"; do
    if still_running "$id"; then
      fail "run $run ($label): still running after scripts/dev exited: $(tr '\0' ' ' <"/proc/${id%%:*}/cmdline")"
    fi
  done
  for port in "$pg_port" "$redis_port" "$http_port" "$renderer_port"; do
    port_free "$port" || fail "run $run ($label): 127.0.0.1:$port is still in use"
  done
  for check in "bff:$DATA/logs/bff.log:msg=\"bff stopped\"" "worker:$DATA/logs/worker.log:msg=\"worker stopped\"" \
    "renderer:$DATA/logs/renderer.log:msg=\"renderer stopped\"" "Redis:$DATA/redis/redis.log:ready to exit" \
    "Postgres:$DATA/postgres/postgres.log:database system is shut down"; do
    IFS=: read -r name file want <<<"$check"
    line="$(last_line "$file")"
    if [[ "$line" != *"$want"* ]]; then
      fail "run $run ($label): the $name log does not end with its shutdown line ($want); it ends with: $line"
    fi
  done
  LEFT=""
done

if ((FAILURES > 0)); then die "$FAILURES check(s) failed"; fi
log "scripts/dev stopped everything, with its logs, for Ctrl+C, SIGTERM to the script and SIGTERM to its group"
