# shellcheck shell=bash
# Ports and wait-for helpers.

if [[ -n "${PRESSROOM_LIB_NET_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_NET_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

_ports_handed_out=" "

# port_free PORT [HOST]: true when HOST:PORT (default 127.0.0.1) can be bound right now.
port_free() {
  local port="$1" host="${2:-127.0.0.1}"
  if command -v perl >/dev/null 2>&1; then
    perl -MIO::Socket::INET -e '
      my $s = IO::Socket::INET->new(LocalAddr => $ARGV[0], LocalPort => $ARGV[1], Proto => "tcp", Listen => 1, ReuseAddr => 1);
      exit($s ? 0 : 1);' "$host" "$port"
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c '
import socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
try:
    s.bind((sys.argv[1], int(sys.argv[2]))); s.listen(1)
except OSError:
    sys.exit(1)' "$host" "$port"
  else
    # No way to bind from bash: fall back to "nobody answers a connect".
    ! (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null
  fi
}

# free_port VAR: sets VAR to a free TCP port on 127.0.0.1. Picks at random below the kernel's
# ephemeral range (so outgoing connections cannot take it meanwhile) and never hands out the same
# port twice per run. (Call it directly, not in $(...): it remembers the ports it handed out.)
free_port() {
  local var="$1" i port
  for ((i = 0; i < 200; i++)); do
    port=$((20000 + RANDOM % 12000))
    [[ "$_ports_handed_out" == *" $port "* ]] && continue
    if port_free "$port"; then
      _ports_handed_out+="$port "
      printf -v "$var" '%s' "$port"
      return 0
    fi
  done
  die "no free port found on 127.0.0.1"
}

# addr_port ADDR: the port of host:port.
addr_port() { printf '%s\n' "${1##*:}"; }
# addr_host ADDR: the host of host:port.
addr_host() { local h="${1%:*}"; h="${h#[}"; printf '%s\n' "${h%]}"; }

# require_port_free ADDR WHAT VAR: die with a clear message when host:port is taken.
require_port_free() {
  local addr="$1" what="$2" var="$3"
  if ! port_free "$(addr_port "$addr")" "$(addr_host "$addr")"; then
    die "$addr ($what) is already in use: stop whatever listens there, or set $var to another address"
  fi
}

# wait_until DESCRIPTION SECONDS PID LOG CMD...: runs CMD every 0.5 s until it succeeds.
# Fails with a clear message (and the last lines of LOG) on timeout, or at once when PID
# (if not empty) has exited.
wait_until() {
  local what="$1" secs="$2" pid="$3" logf="$4"; shift 4
  local deadline=$((SECONDS + secs))
  while ((SECONDS < deadline)); do
    if "$@" >/dev/null 2>&1; then return 0; fi
    if [[ -n "$pid" ]] && ! proc_alive "$pid"; then
      err "$what: the process (pid $pid) exited before it became ready"
      [[ -n "$logf" ]] && tail_log "$logf"
      return 1
    fi
    sleep 0.5
  done
  err "$what: not ready after ${secs}s"
  [[ -n "$logf" ]] && tail_log "$logf"
  return 1
}

# wait_postgres URL SECONDS [PID] [LOG]
wait_postgres() {
  wait_until "Postgres at $(url_host_port "$1" | tr ' ' ':')" "$2" "${3:-}" "${4:-}" pg_isready -q -t 2 -d "$1"
}

# _redis_ping ADDR: PONG from redis-cli (password from PRESSROOM_REDIS_PASSWORD, if set).
_redis_ping() {
  local addr="$1" out
  out="$(REDISCLI_AUTH="${PRESSROOM_REDIS_PASSWORD:-}" redis-cli -h "$(addr_host "$addr")" -p "$(addr_port "$addr")" ping 2>/dev/null)" || return 1
  [[ "$out" == PONG ]]
}

# wait_redis ADDR SECONDS [PID] [LOG]
wait_redis() {
  wait_until "Redis at $1" "$2" "${3:-}" "${4:-}" _redis_ping "$1"
}

# wait_http URL SECONDS [PID] [LOG]: waits for a 2xx answer.
wait_http() {
  wait_until "$1" "$2" "${3:-}" "${4:-}" curl -fsS -o /dev/null --max-time 3 "$1"
}
