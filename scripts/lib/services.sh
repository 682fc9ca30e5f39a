# shellcheck shell=bash
# Building and running the Go services.
#
#   build_binaries BIN                       go build bff, worker, renderer, storefront into BIN
#   service_start NAME LOGDIR ECHO CMD...    runs CMD in its own session; output goes to LOGDIR/NAME.log
#                                            and, when ECHO is 1, to the terminal prefixed with "NAME |"
#   services_stop                            stops every started service (reverse order), then its printer
#   services_first_dead                      sets DEAD_NAME/DEAD_CODE of the first service that has exited
#
# Started services are tracked in SERVICE_NAMES / SERVICE_PIDS (parallel arrays).

if [[ -n "${PRESSROOM_LIB_SERVICES_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_SERVICES_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

SERVICE_NAMES=()
SERVICE_PIDS=()
SERVICE_PRINTER_PIDS=()
SERVICE_LOGS=()

# mawk (Debian's default awk) reads pipes in blocks; -W interactive makes it go line by line.
_awk_unbuffered=()
if awk -W version 2>&1 | grep -q mawk; then _awk_unbuffered=(-W interactive); fi

# build_binaries BIN: builds the binaries as the container image does: bff, worker and storefront with
# CGO off; the renderer with CGO on (its WebP encoder is libwebp's C sources, bundled by
# github.com/chai2010/webp: gcc at build time, nothing at run time).
build_binaries() {
  local bin="$1" start=$SECONDS name cgo
  mkdir -p "$bin"
  log "building bff, worker, renderer, storefront into $bin"
  for name in bff worker renderer storefront; do
    cgo=0
    if [[ "$name" == renderer ]]; then cgo=1; fi
    run_child env -C "$PRESSROOM_ROOT" CGO_ENABLED="$cgo" go build -o "$bin/$name" "./$name/cmd/$name" || {
      err "go build ./$name/cmd/$name failed"
      return 1
    }
  done
  info "built in $((SECONDS - start))s"
}

# service_start NAME LOGDIR ECHO CMD...
service_start() {
  local name="$1" logdir="$2" echo_terminal="$3"; shift 3
  mkdir -p "$logdir"
  local logf="$logdir/$name.log" fifo="$logdir/.$name.fifo"
  rm -f "$fifo"
  mkfifo "$fifo"
  printf '\n===== %s started %s =====\n' "$name" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >>"$logf"
  # The printer copies the output into the log file and, prefixed, to the terminal.
  local prefix
  prefix="$(printf '%-8s | ' "$name")"
  # It ignores Ctrl+C and SIGTERM (both may reach the script's whole process group) so that the
  # services can still write their shutdown logs (a service writing to a fifo nobody reads would die
  # of SIGPIPE); it ends at the end of their output.
  (
    trap '' INT TERM
    exec awk "${_awk_unbuffered[@]}" -v prefix="$prefix" -v logf="$logf" -v echo_terminal="$echo_terminal" '
      { print >> logf; fflush(logf); if (echo_terminal == "1") { print prefix $0; fflush() } }'
  ) <"$fifo" >&2 &
  local printer=$!
  # Own session: Ctrl+C reaches the script only; it stops the services itself, in order.
  setsid "$@" >"$fifo" 2>&1 </dev/null &
  local pid=$!
  SERVICE_NAMES+=("$name")
  SERVICE_PIDS+=("$pid")
  SERVICE_PRINTER_PIDS+=("$printer")
  SERVICE_LOGS+=("$logf")
  info "started $name (pid $pid), log $logf"
}

# service_pid NAME / service_log NAME
service_pid() {
  local i
  for i in "${!SERVICE_NAMES[@]}"; do
    if [[ "${SERVICE_NAMES[$i]}" == "$1" ]]; then printf '%s\n' "${SERVICE_PIDS[$i]}"; return 0; fi
  done
  return 1
}
service_log() {
  local i
  for i in "${!SERVICE_NAMES[@]}"; do
    if [[ "${SERVICE_NAMES[$i]}" == "$1" ]]; then printf '%s\n' "${SERVICE_LOGS[$i]}"; return 0; fi
  done
  return 1
}

# services_first_dead: sets DEAD_NAME and DEAD_CODE for the first service that has exited and
# returns true; false while all run. (Not in a subshell: it reaps its own children.)
DEAD_NAME=""
DEAD_CODE=""
# shellcheck disable=SC2034 # DEAD_* are read by the callers
services_first_dead() {
  local i pid
  for i in "${!SERVICE_NAMES[@]}"; do
    pid="${SERVICE_PIDS[$i]}"
    if ! proc_alive "$pid"; then
      DEAD_NAME="${SERVICE_NAMES[$i]}"
      DEAD_CODE=0
      wait "$pid" 2>/dev/null || DEAD_CODE=$?
      return 0
    fi
  done
  return 1
}

# services_stop: SIGTERM each service in reverse start order (all at once, then wait), then the printers.
services_stop() {
  local i
  ((${#SERVICE_PIDS[@]} > 0)) || return 0
  info "stopping ${SERVICE_NAMES[*]}"
  for ((i = ${#SERVICE_PIDS[@]} - 1; i >= 0; i--)); do
    if proc_alive "${SERVICE_PIDS[$i]}"; then kill -TERM "${SERVICE_PIDS[$i]}" 2>/dev/null || true; fi
  done
  for ((i = ${#SERVICE_PIDS[@]} - 1; i >= 0; i--)); do
    stop_pid "${SERVICE_NAMES[$i]}" "${SERVICE_PIDS[$i]}" 30
  done
  for i in "${!SERVICE_PRINTER_PIDS[@]}"; do
    # The printer ends by itself at end of output; give it a moment to flush. (Not `wait`: see stop_pid.)
    wait_pid_gone "${SERVICE_PRINTER_PIDS[$i]}" 5 || kill -KILL "${SERVICE_PRINTER_PIDS[$i]}" 2>/dev/null || true
  done
  for i in "${!SERVICE_LOGS[@]}"; do
    rm -f "$(dirname "${SERVICE_LOGS[$i]}")/.${SERVICE_NAMES[$i]}.fifo"
  done
  SERVICE_NAMES=()
  SERVICE_PIDS=()
  SERVICE_PRINTER_PIDS=()
  SERVICE_LOGS=()
}
