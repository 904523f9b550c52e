// Package db opens the connection pool and applies the embedded migrations. It owns no domain
// rules and no queries beyond what migration and health checks need.
package db
