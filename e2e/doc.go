// Package e2e holds the browser tests of the web app. They build the real binary (cmd/api) with the
// web app embedded, start it on a throwaway embedded database, sign Debian's Chromium in with the
// login link, and drive every flow at 1280×800 and at 390×844, waiting on data-testid selectors and
// never on sleeps. A failed step leaves a screenshot in artifacts/e2e/.
//
// Run them with `make e2e`, which installs Chromium when missing, builds the web app and sets
// MEMORY_E2E=1; without that variable (a plain `go test ./...`) every test skips, so the suite runs
// once per `make test` and not twice. MEMORY_E2E_SCREENSHOTS=1 also saves a screenshot at the end of
// every flow and at its named steps, for looking at the pages, and MEMORY_E2E_BIN=<path> tests a
// binary built elsewhere instead of building ./cmd/api.
//
// The package has no non-test code besides this comment; it must not import the service's internal
// packages, because it tests the binary from the outside, as a user and a GraphQL client would.
package e2e
