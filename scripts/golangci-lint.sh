#!/usr/bin/env bash
# Runs golangci-lint (configured by .golangci.yml) with the arguments given, at the version below.
# The binary is kept at .tools/bin/golangci-lint (ignored by git): the first run, or a run after
# VERSION changed, builds it with `go install` from the Go module proxy (several minutes on two
# cores); afterwards only its version is checked.
#
# It is installed on its own rather than named as a tool in go.mod: as a tool, its dependencies
# would join the module's own, and `go get -tool` of this version raised modules that cmd/api is
# built from (go.opentelemetry.io/otel, through dataloadgen) and added some 190 lines to go.mod.
# `go install …@version` builds it with the dependencies its authors tested, apart from ours.
set -euo pipefail

VERSION=v2.15.0

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BIN=$ROOT/.tools/bin/golangci-lint

if [[ ! -x $BIN ]] || [[ $("$BIN" version --short 2>/dev/null) != "${VERSION#v}" ]]; then
	echo "golangci-lint: installing $VERSION into .tools/bin (once; several minutes)" >&2
	GOBIN=$ROOT/.tools/bin go install "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$VERSION"
fi

cd "$ROOT"
exec "$BIN" "$@"
