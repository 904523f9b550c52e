#!/usr/bin/env bash
# Installs Debian's Chromium for the browser tests (e2e/) when /usr/bin/chromium is missing, and does
# nothing — silently — when it is there. Works as root, or as a normal user with password-less sudo;
# otherwise it says what to install and exits non-zero. Browsers are never downloaded any other way
# (no npm or playwright downloads): the tests drive the distribution's package.
set -euo pipefail

CHROMIUM=/usr/bin/chromium

say() { echo "bootstrap-chromium: $*" >&2; }
die() {
	say "$*"
	say "install Debian's chromium package yourself (as root: apt-get install -y chromium), then run 'make e2e' again."
	exit 1
}

[[ -x $CHROMIUM ]] && exit 0

command -v apt-get >/dev/null || die "$CHROMIUM is missing and this machine has no apt-get."

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
	command -v sudo >/dev/null && sudo -n true 2>/dev/null || die "$CHROMIUM is missing and installing it needs root or password-less sudo."
	SUDO=(sudo -n)
fi

say "installing chromium (Debian package)"
"${SUDO[@]}" apt-get update -qq >/dev/null || die "apt-get update failed"
"${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive DEBCONF_NOWARNINGS=yes apt-get install -y -qq --no-install-recommends chromium >/dev/null ||
	die "apt-get install chromium failed"
[[ -x $CHROMIUM ]] || die "$CHROMIUM still missing after installing chromium"
say "installed $("$CHROMIUM" --version 2>/dev/null || echo chromium)"
