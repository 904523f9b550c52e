// Package lint holds checks of the repository's own source and documents that run as tests (go
// test ./internal/lint/): rules the compiler can't see. It has no code of its own and nothing imports it.
package lint
