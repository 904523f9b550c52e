# The front door. `make help` lists the targets.
SHELL := /usr/bin/env bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

GO ?= go
FRONTEND_SOURCES := $(shell find frontend/src -type f 2>/dev/null) frontend/index.html frontend/graphiql.html \
	frontend/vite.config.ts frontend/package.json frontend/package-lock.json frontend/tsconfig.app.json
# The typed operations in frontend/src/gql/ (committed) come from the API's schema and the operations
# written in frontend/src/; regenerating them needs node_modules, not the network.
FRONTEND_CODEGEN_INPUTS := frontend/codegen.ts $(wildcard graph/*.graphqls) \
	$(filter-out frontend/src/gql/%,$(shell find frontend/src -type f -name '*.ts*' 2>/dev/null))

.PHONY: help
help: ## list the targets
	@# Every target has a "## description"; the name column is as wide as the longest name.
	@awk 'BEGIN {FS = ":.*## "} /^[a-z0-9-]+:.*## / {n++; name[n] = $$1; desc[n] = $$2; if (length($$1) > w) w = length($$1)} \
		END {for (i = 1; i <= n; i++) printf "  make %-*s  %s\n", w, name[i], desc[i]}' $(MAKEFILE_LIST)

.PHONY: bootstrap
bootstrap: ## install PostgreSQL server, dev headers and pgvector if missing (idempotent)
	@scripts/bootstrap-postgres.sh

frontend/node_modules/.package-lock.json: frontend/package-lock.json
	cd frontend && npm ci --no-audit --no-fund --loglevel=error

# Quiet unless it fails. codegen leaves unchanged files alone, so the touch records that they are
# up to date.
frontend/src/gql/graphql.ts: frontend/node_modules/.package-lock.json $(FRONTEND_CODEGEN_INPUTS)
	@cd frontend && out=$$(npm run codegen --silent 2>&1) || { echo "$$out" >&2; exit 1; }; touch src/gql/graphql.ts

frontend/dist/index.html: frontend/node_modules/.package-lock.json frontend/src/gql/graphql.ts $(FRONTEND_SOURCES)
	cd frontend && npm run build --silent

# The official TypeScript MCP client, for internal/mcpserver's TestNpmClient only (test-only package).
MCP_NPM_CLIENT := internal/mcpserver/testdata/npm-client
$(MCP_NPM_CLIENT)/node_modules/.package-lock.json: $(MCP_NPM_CLIENT)/package-lock.json
	cd $(MCP_NPM_CLIENT) && npm ci --no-audit --no-fund --loglevel=error

.PHONY: mcp-client
mcp-client: $(MCP_NPM_CLIENT)/node_modules/.package-lock.json ## install the TypeScript MCP client the MCP tests use (make test does it)

.PHONY: codegen
codegen: frontend/src/gql/graphql.ts ## regenerate the web app's typed GraphQL operations (when the schema or operations changed)

.PHONY: frontend
frontend: frontend/dist/index.html ## build the web app and GraphiQL (when sources changed)

.PHONY: run
run: bootstrap frontend ## serve on http://127.0.0.1:8080 with the embedded database in ./.data
	@$(GO) build -o bin/api ./cmd/api
	@# The server itself, not `go run`, so that Ctrl-C ends it with its own clean exit (status 0).
	@exec bin/api

.PHONY: prometheus
prometheus: ## unpack Debian's prometheus into .tools/ for the metrics test (make test does it; idempotent)
	@scripts/bootstrap-prometheus.sh

.PHONY: test
test: bootstrap frontend mcp-client prometheus ## the tests CI runs after make check: vet, unit and integration tests with -race (a real Prometheus included), short fuzzing, e2e
	$(GO) vet ./...
	MEMORY_REQUIRE_PROMETHEUS=1 MEMORY_REQUIRE_WEBAPP=1 $(GO) test -race -count=1 -shuffle=on ./...
	FUZZTIME=5s scripts/fuzz-short.sh
	$(MAKE) --no-print-directory e2e

.PHONY: e2e
e2e: bootstrap frontend ## browser tests: the real binary driven by headless Chromium at desktop and phone sizes
	@scripts/bootstrap-chromium.sh
	MEMORY_E2E=1 $(GO) test -count=1 ./e2e/...

# The demo's main screens at 1280 and 390 px, for docs/WEB-APP.md and the README (e2e's TestScreenshots).
.PHONY: screenshots
screenshots: bootstrap frontend ## save screenshots of the main screens with the demo into docs/screenshots/
	@scripts/bootstrap-chromium.sh
	MEMORY_E2E=1 MEMORY_SCREENSHOTS=$(CURDIR)/docs/screenshots $(GO) test -count=1 -run '^TestScreenshots$$' -v ./e2e/

.PHONY: bench
bench: bootstrap frontend ## recall quality (make eval), then the benchmark table (real API and database, floors side by side) with it into docs/BENCHMARKS.md, then the Go benchmarks; about 10 min on 2 cores
	$(GO) run ./cmd/eval -out docs/EVAL-RESULTS.md
	$(GO) run ./cmd/bench -out docs/BENCHMARKS.md -quality docs/EVAL-RESULTS.md $(if $(PROFILE),-profile $(PROFILE))
	$(GO) test -run '^$$' -bench . -benchtime 1s -count 1 ./internal/memory/ ./internal/jobs/

.PHONY: eval
eval: bootstrap ## recall quality: a synthetic conversational data set through the real API, the packet beside a BM25 top 12, into docs/EVAL-RESULTS.md; about 2 min
	$(GO) run ./cmd/eval -out docs/EVAL-RESULTS.md

.PHONY: soak
soak: bootstrap ## the soak: many clients on the real API and database for MEMORY_SOAK_DURATION (default 5m)
	MEMORY_SOAK_DURATION=$(or $(MEMORY_SOAK_DURATION),5m) $(GO) test -race -count=1 -v -timeout 30m -run '^TestSoak$$' ./internal/soak/

.PHONY: generate
generate: sqlc ## regenerate GraphQL code from graph/schema.graphqls and the query code (sqlc)
	$(GO) tool gqlgen generate

# sqlc.yaml names each package's queries/ folder and the package generated from it (out:).
SQLC_OUT := $(shell sed -n 's/^ *out: *//p' sqlc.yaml)

.PHONY: sqlc
sqlc: ## regenerate the typed query code from each package's queries/*.sql and migrations/
	$(GO) tool sqlc generate

# Generates from the committed queries and migrations into a scratch copy and compares it with the
# committed code: a query, a migration or sqlc.yaml changed without `make sqlc` fails here.
.PHONY: sqlc-check
sqlc-check: ## fail when the committed sqlc code is not what the queries and migrations generate
	@tmp=$$(mktemp -d); trap 'rm -rf "$$tmp"' EXIT; \
	cp sqlc.yaml "$$tmp/"; cp -r migrations "$$tmp/"; \
	for d in $$(sed -n 's/^ *queries: *//p' sqlc.yaml); do mkdir -p "$$tmp/$$d"; cp -r "$$d/." "$$tmp/$$d/"; done; \
	$(GO) tool sqlc -f "$$tmp/sqlc.yaml" generate; \
	status=0; for d in $(SQLC_OUT); do diff -ru "$$d" "$$tmp/$$d" || status=1; done; \
	if [[ $$status -ne 0 ]]; then echo "sqlc: the generated code is stale; run make sqlc and commit it" >&2; fi; \
	exit $$status

# internal/db/testdata/schema.sql is pg_dump's schema of a database migrated to the latest version;
# TestSchemaSnapshot (part of make test) fails when the migrations build anything else.
.PHONY: schema
schema: bootstrap ## rewrite the committed schema snapshot (internal/db/testdata/schema.sql) after a migration changed the schema
	$(GO) test ./internal/db -run '^TestSchemaSnapshot$$' -count=1 -update

.PHONY: schema-check
schema-check: bootstrap ## fail when the committed schema snapshot is not what the migrations build (starts a throwaway PostgreSQL)
	$(GO) test ./internal/db -run '^TestSchemaSnapshot$$' -count=1

.PHONY: lint
lint: ## gofmt and go vet
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [[ -n $$out ]]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# .golangci.yml says which linters run and why; scripts/golangci-lint.sh installs the version it names
# into .tools/bin the first time (several minutes).
.PHONY: golangci
golangci: ## golangci-lint: staticcheck, errcheck, unused, the packages' layering (depguard) and more
	scripts/golangci-lint.sh run ./...

.PHONY: deadcode
deadcode: ## fail on functions that only tests reach (exceptions in scripts/deadcode-allow.txt)
	scripts/deadcode.sh

# The static checks, cheapest first; CI runs them before make test. Generated code is regenerated in
# place and compared with what the tree had (scripts/check-generated.sh), so a failure leaves the
# regenerated files to review and commit; the sqlc code is generated into a scratch copy and diffed
# (sqlc-check). go.mod is checked before gqlgen runs, which tidies it.
.PHONY: check
check: lint frontend/node_modules/.package-lock.json ## what CI runs before the tests: lint, go.mod tidy, golangci-lint, dead code, generated code current (gqlgen, sqlc), ESLint, the web app's unit tests
	$(GO) mod tidy -diff
	$(MAKE) --no-print-directory golangci
	$(MAKE) --no-print-directory deadcode
	scripts/check-generated.sh graph -- $(GO) tool gqlgen generate
	$(MAKE) --no-print-directory sqlc-check
	$(MAKE) --no-print-directory schema-check
	@echo "cd frontend && npm run codegen:check"; cd frontend && out=$$(npm run --silent codegen:check 2>&1) || { echo "$$out" >&2; exit 1; }
	cd frontend && npm run --silent lint
	cd frontend && npm run --silent test
