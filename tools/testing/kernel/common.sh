# Sourced by the harness scripts: cache location, progress and error output.
# shellcheck disable=SC2034  # the variables are used by the sourcing scripts
CACHE=${ZBEWALGO_CACHE:-/var/cache/zbewalgo}
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
VERSIONS="6.1 6.12 7.2"

# Progress goes to stderr so that stdout can carry a result (build.sh prints a path).
say() { printf '[%s +%ds] %s\n' "${0##*/}" "$SECONDS" "$*" >&2; }
die() { say "ERROR: $*"; exit 1; }

check_version() {
	case " $VERSIONS " in *" $1 "*) ;; *) die "unknown version '$1' (one of: $VERSIONS)" ;; esac
}
