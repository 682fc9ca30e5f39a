# shellcheck shell=bash
# Common helpers for scripts/dev and scripts/test: logging, privilege handling, process helpers.
# Sourced, never executed. Safe under `set -euo pipefail`.

if [[ -n "${PRESSROOM_LIB_COMMON_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_COMMON_LOADED=1

# Repository root (scripts/lib/ is two levels below it).
PRESSROOM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export PRESSROOM_ROOT

# Go lives in /usr/local/go on our machines; `sudo -u someone` drops it from PATH.
if ! command -v go >/dev/null 2>&1 && [[ -x /usr/local/go/bin/go ]]; then
  PATH="/usr/local/go/bin:$PATH"
fi
export PATH

if [[ -t 2 && -z "${NO_COLOR:-}" ]]; then
  _c_bold=$'\033[1m' _c_red=$'\033[31m' _c_green=$'\033[32m' _c_yellow=$'\033[33m' _c_blue=$'\033[34m' _c_off=$'\033[0m'
else
  _c_bold='' _c_red='' _c_green='' _c_yellow='' _c_blue='' _c_off=''
fi

log()  { printf '%s==>%s %s\n' "$_c_blue$_c_bold" "$_c_off" "$*" >&2; }
info() { printf '    %s\n' "$*" >&2; }
warn() { printf '%swarning:%s %s\n' "$_c_yellow$_c_bold" "$_c_off" "$*" >&2; }
err()  { printf '%serror:%s %s\n' "$_c_red$_c_bold" "$_c_off" "$*" >&2; }
die()  { err "$*"; exit 1; }

is_root() { [[ "$(id -u)" -eq 0 ]]; }

# as_root CMD...: run a command as root (directly when root, else through sudo).
# Without a terminal on stdin sudo must not prompt (CI, no stdin): use -n and fail clearly.
as_root() {
  if is_root; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    if [[ -t 0 ]]; then
      sudo "$@"
    else
      sudo -n "$@" || { err "sudo needs a password and there is no terminal: run once interactively, or as root"; return 1; }
    fi
  else
    err "need root for: $* (not root and sudo is not installed)"
    return 1
  fi
}

# as_user USER CMD...: run a command as USER. When USER is the current user, run it directly.
# Runs from / so that the target user never needs access to the current directory.
as_user() {
  local user="$1"; shift
  if [[ "$user" == "$(id -un)" ]]; then
    "$@"
  elif is_root; then
    if command -v runuser >/dev/null 2>&1; then
      (cd / && runuser -u "$user" -- "$@")
    else
      (cd / && setpriv --reuid="$user" --regid="$(id -g "$user")" --init-groups -- "$@")
    fi
  else
    (cd / && as_root runuser -u "$user" -- "$@")
  fi
}

# abspath PATH: absolute path (the path need not exist).
abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s/%s\n' "$(pwd)" "${1#./}" ;;
  esac
}

# proc_alive PID: true while the process exists and is not a zombie.
proc_alive() {
  local pid="$1" state
  [[ -n "$pid" ]] || return 1
  kill -0 "$pid" 2>/dev/null || return 1
  state="$(sed -e 's/^.*) //' "/proc/$pid/stat" 2>/dev/null | cut -c1)" || return 1
  [[ -n "$state" && "$state" != Z ]]
}

# wait_pid_gone PID SECONDS: wait until PID has exited; false on timeout.
wait_pid_gone() {
  local pid="$1" secs="$2" i
  for ((i = 0; i < secs * 10; i++)); do
    proc_alive "$pid" || return 0
    sleep 0.1
  done
  ! proc_alive "$pid"
}

# stop_pid NAME PID [SECONDS]: SIGTERM, wait, then SIGKILL. Also ends whatever is left of the
# process group the process leads (services are started with setsid, so e.g. Chromium children).
stop_pid() {
  local name="$1" pid="$2" secs="${3:-20}"
  [[ -n "$pid" ]] || return 0
  if proc_alive "$pid"; then
    info "stopping $name (pid $pid)"
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_pid_gone "$pid" "$secs"; then
      warn "$name did not stop within ${secs}s; killing it"
      kill -KILL "$pid" 2>/dev/null || true
      wait_pid_gone "$pid" 5 || true
    fi
  fi
  # Leftovers of its process group (only when it was a group leader).
  if kill -0 -- "-$pid" 2>/dev/null; then
    kill -TERM -- "-$pid" 2>/dev/null || true
    sleep 1
    kill -KILL -- "-$pid" 2>/dev/null || true
  fi
  # No `wait "$pid"` to reap it: called from a trap, bash may have reaped the child already and lost its
  # status, and then `wait` blocks until some other child (Redis) exits, i.e. for ever. Bash reaps its
  # children by itself; whatever is left as a zombie goes with the script.
}

# tail_log FILE [LINES]: print the last lines of a log, indented, to stderr.
tail_log() {
  local file="$1" lines="${2:-40}"
  if [[ -s "$file" ]]; then
    printf '    --- last %s lines of %s ---\n' "$lines" "$file" >&2
    tail -n "$lines" "$file" | sed -e 's/^/    | /' >&2
    printf '    ---\n' >&2
  else
    printf '    (log %s is empty or missing)\n' "$file" >&2
  fi
}

# random_hex BYTES
random_hex() {
  od -An -N"${1:-16}" -tx1 /dev/urandom | tr -d ' \n'
}

# url_host_port URL: prints "host port" of a postgres URL (default port 5432).
url_host_port() {
  local rest="${1#*://}"
  rest="${rest%%/*}"
  rest="${rest%%\?*}"
  rest="${rest##*@}"
  local host="${rest%:*}" port="${rest##*:}"
  if [[ "$rest" != *:* ]]; then host="$rest"; port=5432; fi
  printf '%s %s\n' "$host" "$port"
}

# run_child CMD...: runs CMD (an executable, not a function) in its own session and waits for it.
# A signal to the script interrupts the wait at once (its trap runs), and kill_child then ends the
# child's whole process group, so long builds and test runs never outlive the script.
CHILD_PID=""
run_child() {
  local rc=0
  setsid "$@" </dev/null &
  CHILD_PID=$!
  wait "$CHILD_PID" || rc=$?
  CHILD_PID=""
  return "$rc"
}

# kill_child: ends the process group of a run_child command still running (called from traps).
kill_child() {
  [[ -n "$CHILD_PID" ]] || return 0
  kill -TERM -- "-$CHILD_PID" 2>/dev/null || true
  wait_pid_gone "$CHILD_PID" 10 || kill -KILL -- "-$CHILD_PID" 2>/dev/null || true
  sleep 0.2
  kill -KILL -- "-$CHILD_PID" 2>/dev/null || true
  wait_pid_gone "$CHILD_PID" 5 || true # not `wait`: see stop_pid
  CHILD_PID=""
}
