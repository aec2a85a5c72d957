#!/usr/bin/env bash
# tools/install-deps makes its deb-src entries from the machine's own
# package sources (issue 29, finding 12: it named one fixed mirror). Runs
# its debsrc_from_machine on a made-up /etc/apt (APT_ETC) holding a
# one-line sources.list and a deb822 .sources file, each on its own
# mirror, and checks that the entries name those mirrors and only them.
# Touches nothing of the machine's. Ends with "N passed, N failed".
set -uo pipefail
cd "$(dirname "$0")/../.."
passed=0 failed=0
is() { if [ "$2" = "$3" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1: got '$2', expected '$3'"; fi; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/apt/sources.list.d"
cat > "$tmp/apt/sources.list" <<'L'
# a comment
deb http://mirror.one.example/debian bookworm main contrib
deb [signed-by=/usr/share/keyrings/one.gpg] http://mirror.one.example/debian-security bookworm-security main
deb-src http://mirror.one.example/debian bookworm main
L
cat > "$tmp/apt/sources.list.d/debian.sources" <<'L'
Types: deb
URIs: http://mirror.two.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.two.example/off
Suites: bookworm
Components: main
Enabled: no

Types: deb-src
URIs: http://mirror.two.example/already
Suites: bookworm
Components: main
L
sed -n '/^APT_ETC=/,/^}/p' tools/install-deps > "$tmp/fn.sh"
APT_ETC=$tmp/apt
. "$tmp/fn.sh"
debsrc_from_machine "$tmp/apt/sources.list.d/topochess-deb-src"
is "made from the machine's sources" "$?" 0
list=$(cat "$tmp/apt/sources.list.d/topochess-deb-src.list" 2> /dev/null)
src=$(cat "$tmp/apt/sources.list.d/topochess-deb-src.sources" 2> /dev/null)
is "one-line: deb-src of each deb line" "$list" "deb-src http://mirror.one.example/debian bookworm main contrib
deb-src [signed-by=/usr/share/keyrings/one.gpg] http://mirror.one.example/debian-security bookworm-security main"
is "deb822: the enabled deb stanza as deb-src" "$src" "Types: deb-src
URIs: http://mirror.two.example/debian
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg"
is "no fixed mirror" "$(grep -c 'deb.debian.org' <<< "$list$src")" 0
rm -f "$tmp/apt/sources.list" "$tmp/apt/sources.list.d/"*
debsrc_from_machine "$tmp/apt/sources.list.d/topochess-deb-src"
is "no sources at all: a failure, not a guess" "$?" 1
echo "install-deps-test: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
