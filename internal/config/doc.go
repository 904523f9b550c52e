// Package config reads and validates the process configuration from environment variables, once, at
// start. A bad value stops the process with a message that names the variable. Every variable is
// documented in docs/CONFIGURATION.md with its default. It must not hold secrets in error messages.
package config
