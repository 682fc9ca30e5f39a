# shellcheck shell=bash
# A throw-away Stripe API for the tests: stripe-mock (MIT, a Go module), stateless, HTTP only.
#
#   stripemock_start ROOT PORT   sets STRIPEMOCK_URL (http://127.0.0.1:PORT)
#   stripemock_stop ROOT
#
# ROOT holds stripemock.pid and stripemock.log. It listens on 127.0.0.1:PORT (and on a loopback port the system
# picks for the HTTPS it always serves).

if [[ -n "${PRESSROOM_LIB_STRIPEMOCK_LOADED:-}" ]]; then return 0; fi
PRESSROOM_LIB_STRIPEMOCK_LOADED=1
# shellcheck source=common.sh
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# shellcheck source=install.sh
source "$(dirname "${BASH_SOURCE[0]}")/install.sh"
# shellcheck source=net.sh
source "$(dirname "${BASH_SOURCE[0]}")/net.sh"

PRESSROOM_STRIPEMOCK_DEFAULT_VERSION="v0.203.0"
# shellcheck disable=SC2034 # read by the scripts that source this file
STRIPEMOCK_URL=""

# stripemock_start ROOT PORT
stripemock_start() {
  local root="$1" port="$2" bin
  bin="$(go_tool_bin stripe-mock github.com/stripe/stripe-mock \
    "${PRESSROOM_STRIPEMOCK_VERSION:-$PRESSROOM_STRIPEMOCK_DEFAULT_VERSION}")" || return 1
  mkdir -p "$root"
  if ! port_free "$port"; then
    die "127.0.0.1:$port (stripe-mock) is already in use"
  fi
  info "starting stripe-mock on 127.0.0.1:$port"
  # Its HTTPS listener would take the fixed port 12112 unless told: a port the system picks, on loopback.
  setsid "$bin" -http-addr "127.0.0.1:$port" -https-addr "127.0.0.1:" >>"$root/stripemock.log" 2>&1 </dev/null &
  local pid=$!
  printf '%s\n' "$pid" >"$root/stripemock.pid"
  # shellcheck disable=SC2034
  STRIPEMOCK_URL="http://127.0.0.1:$port"
  # Any API call with a test key answers once it serves.
  if ! wait_until stripe-mock 30 "$pid" "$root/stripemock.log" \
    curl -fsS -o /dev/null --max-time 3 -u sk_test_123: "$STRIPEMOCK_URL/v1/balance"; then
    stop_pid stripe-mock "$pid" 5
    return 1
  fi
}

# stripemock_stop ROOT
stripemock_stop() {
  local root="$1" pid
  [[ -f "$root/stripemock.pid" ]] || return 0
  pid="$(cat "$root/stripemock.pid" 2>/dev/null || true)"
  if [[ "$pid" =~ ^[0-9]+$ ]] && proc_alive "$pid"; then
    info "stopping stripe-mock ($root)"
    stop_pid stripe-mock "$pid" 15
  fi
  rm -f "$root/stripemock.pid"
}
