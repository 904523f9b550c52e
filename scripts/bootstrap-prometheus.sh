#!/usr/bin/env bash
# Puts the prometheus binary of Debian's prometheus package at .tools/bin/prometheus (ignored by git)
# for the metrics test (internal/server's TestMetricsWithPrometheus), and does nothing — silently —
# when it is there. The package is downloaded (apt-get download) and unpacked (dpkg -x) into a
# scratch directory, of which only the binary is kept (the package's examples hold Go files that the
# repository's checks would read); it is never installed, since its postinst would create a user and
# start a service. Debian's archive is the only source; nothing is fetched any other way. Needs
# apt-get and dpkg; root (or password-less sudo) only when the package lists must be refreshed first.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BIN=$ROOT/.tools/bin/prometheus

say() { echo "bootstrap-prometheus: $*" >&2; }
die() {
	say "$*"
	say "or install Debian's prometheus package yourself and set MEMORY_PROMETHEUS_BIN to its binary (e.g. /usr/bin/prometheus)."
	exit 1
}

[[ -x $BIN ]] && exit 0

command -v apt-get >/dev/null && command -v dpkg >/dev/null || die "$BIN is missing and this machine has no apt-get and dpkg."

SUDO=()
if [[ $(id -u) -ne 0 ]] && command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	SUDO=(sudo -n)
fi

cache=$ROOT/.tools/cache
mkdir -p "$cache"
rm -f "$cache"/prometheus_*.deb
download() { (cd "$cache" && apt-get download -qq prometheus >/dev/null 2>&1); }
if ! download; then
	say "refreshing the package lists"
	"${SUDO[@]}" apt-get update -qq >/dev/null || die "apt-get update failed (it needs root or password-less sudo)"
	download || die "apt-get download prometheus failed"
fi
deb=$(ls "$cache"/prometheus_*.deb)
unpacked=$(mktemp -d)
trap 'rm -rf "$unpacked"' EXIT
dpkg -x "$deb" "$unpacked"
[[ -x $unpacked/usr/bin/prometheus ]] || die "the prometheus package holds no usr/bin/prometheus"
mkdir -p "$(dirname "$BIN")"
cp "$unpacked/usr/bin/prometheus" "$BIN.tmp"
mv "$BIN.tmp" "$BIN"
rm -f "$deb"
say "unpacked $("$BIN" --version 2>/dev/null | head -n 1 || echo prometheus) into $BIN"
