# shellcheck shell=bash
# A project-local Redis.
#
#   redis_start ROOT PORT MODE   MODE is dev (append-only file) or test (no persistence); sets REDIS_ADDR
#   redis_stop ROOT
#
# Layout under ROOT: redis.conf (written on every start), redis.pid, redis.log, and the data files.
# It listens on 127.0.0.1:PORT only and runs in the foreground of its own session (daemonize no,
# started in the background by the script, tracked by pid), as the user running the script.

if [[ -n "${PRESSROOM_LIB_REDIS_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_REDIS_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=net.sh
source "$(dirname "${BASH_SOURCE[0]}")/net.sh"

# shellcheck disable=SC2034 # read by the scripts that source this file
REDIS_ADDR=""

# _redis_conf_quote VALUE: a redis.conf string literal.
_redis_conf_quote() { local v="${1//\\/\\\\}"; printf '"%s"' "${v//\"/\\\"}"; }

# redis_pid ROOT: pid of the running Redis of ROOT, if any.
redis_pid() {
  local root="$1" pid
  [[ -f "$root/redis.pid" ]] || return 1
  pid="$(cat "$root/redis.pid" 2>/dev/null)" || return 1
  [[ "$pid" =~ ^[0-9]+$ ]] && proc_alive "$pid" && grep -q redis "/proc/$pid/comm" 2>/dev/null && printf '%s\n' "$pid"
}

# redis_start ROOT PORT MODE
redis_start() {
  local root="$1" port="$2" mode="$3" old
  mkdir -p "$root"
  chmod 700 "$root"
  if old="$(redis_pid "$root")"; then
    warn "a Redis from an earlier run is still running on $root; restarting it"
    stop_pid redis "$old" 30
  fi
  if ! port_free "$port"; then
    die "127.0.0.1:$port (Redis) is already in use: stop whatever listens there, or set PRESSROOM_REDIS_PORT"
  fi
  {
    echo "# written by scripts/lib/redis.sh on every start"
    echo "bind 127.0.0.1"
    echo "protected-mode yes"
    echo "port $port"
    echo "daemonize no"
    echo "supervised no"
    echo "dir $(_redis_conf_quote "$root")"
    echo "pidfile $(_redis_conf_quote "$root/redis.pid")"
    echo "logfile \"\""
    echo "loglevel notice"
    echo "databases 64"
    if [[ "$mode" == test ]]; then
      echo "save \"\""
      echo "appendonly no"
    else
      echo "appendonly yes"
      echo "appendfsync everysec"
      echo "save 3600 1 300 100 60 10000"
    fi
  } >"$root/redis.conf"

  info "starting Redis on 127.0.0.1:$port ($mode)"
  # Own session: Ctrl+C must not reach it; the scripts stop it in order. Logs go to redis.log.
  setsid redis-server "$root/redis.conf" >>"$root/redis.log" 2>&1 </dev/null &
  local pid=$!
  printf '%s\n' "$pid" >"$root/redis.pid"
  REDIS_ADDR="127.0.0.1:$port"
  if ! wait_redis "$REDIS_ADDR" 30 "$pid" "$root/redis.log"; then
    stop_pid redis "$pid" 5
    return 1
  fi
}

# redis_stop ROOT: SIGTERM (Redis writes its append-only file and exits), then SIGKILL after 30 s.
redis_stop() {
  local root="$1" pid
  if pid="$(redis_pid "$root")"; then
    info "stopping Redis ($root)"
    stop_pid redis "$pid" 30
  fi
  rm -f "$root/redis.pid"
}
