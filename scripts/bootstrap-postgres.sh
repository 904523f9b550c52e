#!/usr/bin/env bash
# Installs what the project needs from PostgreSQL on Debian/Ubuntu, and nothing when it is all there:
# the server binaries, postgresql-server-dev-<major>, and pgvector (Debian's binary package when one
# exists for the installed major version, otherwise built from Debian's pgvector source package).
# Idempotent and quiet when there is nothing to do. Works as root, or as a normal user with sudo.
set -euo pipefail

say() { echo "bootstrap-postgres: $*" >&2; }
die() {
	say "$*"
	say "install these yourself, then run 'make test' again: PostgreSQL server (15 or newer), postgresql-server-dev-<major>, pgvector for that major (the postgresql-<major>-pgvector package)."
	exit 1
}

SUDO=()
if [[ $(id -u) -ne 0 ]]; then
	if command -v sudo >/dev/null && sudo -n true 2>/dev/null; then SUDO=(sudo -n); else SUDO=(missing-sudo); fi
fi
as_root() {
	[[ ${SUDO[0]:-} == missing-sudo ]] && die "need root or password-less sudo to run: $*"
	"${SUDO[@]}" "$@"
}

apt_updated=
apt_install() {
	command -v apt-get >/dev/null || die "no apt-get on this machine; cannot install: $*"
	if [[ -z $apt_updated ]]; then as_root apt-get update -qq >/dev/null || die "apt-get update failed"; apt_updated=1; fi
	say "installing $*"
	as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null || die "apt-get install $* failed"
}

# The server's bin dir, newest major first.
server_bindir() {
	local d
	for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k5 -V -r); do
		[[ -x $d/postgres && -x $d/initdb ]] && { echo "$d"; return; }
	done
	if command -v postgres >/dev/null && command -v initdb >/dev/null; then dirname "$(command -v postgres)"; fi
}

bindir=$(server_bindir)
if [[ -z $bindir ]]; then
	apt_install postgresql
	bindir=$(server_bindir)
	[[ -n $bindir ]] || die "PostgreSQL server binaries not found after install"
fi
major=$("$bindir/postgres" --version | sed -E 's/[^0-9]*([0-9]+).*/\1/')

pg_config=$bindir/pg_config
[[ -x $pg_config ]] || pg_config=$(command -v pg_config || true)
if [[ -z $pg_config || ! -f $("$pg_config" --includedir-server 2>/dev/null)/postgres.h ]]; then
	apt_install "postgresql-server-dev-$major"
	pg_config=$bindir/pg_config
	[[ -x $pg_config ]] || pg_config=/usr/lib/postgresql/$major/bin/pg_config
fi

control=$("$pg_config" --sharedir)/extension/vector.control
if [[ ! -f $control ]]; then
	command -v apt-get >/dev/null || die "pgvector is missing and there is no apt-get"
	if [[ -z $apt_updated ]]; then as_root apt-get update -qq >/dev/null || die "apt-get update failed"; apt_updated=1; fi
	if apt-cache show "postgresql-$major-pgvector" >/dev/null 2>&1; then
		apt_install "postgresql-$major-pgvector"
	else
		say "no pgvector package for PostgreSQL $major; building it from Debian's source package"
		command -v make >/dev/null && command -v gcc >/dev/null && command -v dpkg-source >/dev/null || apt_install build-essential dpkg-dev
		list=/etc/apt/sources.list.d/open-bot-memory-pgvector-src.sources
		if [[ ! -f $list ]]; then
			printf 'Types: deb-src\nURIs: http://deb.debian.org/debian\nSuites: trixie\nComponents: main\nSigned-By: /usr/share/keyrings/debian-archive-keyring.gpg\n' |
				as_root tee "$list" >/dev/null
			as_root apt-get update -qq >/dev/null || die "apt-get update with the trixie deb-src line failed"
		fi
		work=$(mktemp -d)
		trap 'rm -rf "$work"' EXIT
		(cd "$work" && apt-get source -qq --download-only pgvector >/dev/null 2>&1 && dpkg-source -x --no-check ./*.dsc src >/dev/null) ||
			die "could not fetch Debian's pgvector source package"
		make -s -C "$work/src" PG_CONFIG="$pg_config" >/dev/null 2>&1 || die "building pgvector failed (make in $work/src)"
		as_root make -s -C "$work/src" PG_CONFIG="$pg_config" install >/dev/null || die "installing pgvector failed"
	fi
	[[ -f $control ]] || die "pgvector still missing after install ($control)"
	say "pgvector installed for PostgreSQL $major"
fi
