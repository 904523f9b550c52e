package dbtest

import (
	"context"
	"net/url"
	"testing"
	"time"
)

// OwnedDatabase creates a role that is not a superuser (LOGIN, a random password, nothing else) and a
// new, empty database it owns, public schema included — no extensions, no schema objects — as a
// managed PostgreSQL gives an application. It
// returns that role's URL of the database and a superuser's URL of the same database, for the test
// to do what a DBA would (CREATE EXTENSION vector, say). Both are dropped when t ends. With
// TEST_DATABASE_URL its role needs CREATEROLE too.
func OwnedDatabase(t testing.TB) (ownerURL, adminURL string) {
	t.Helper()
	s := requireServer(t)
	suffix := randomSuffix()
	role, name, password := "memory_owner_"+suffix, "memory_owned_"+suffix, randomSuffix()+randomSuffix()
	ctx := t.Context()
	if err := execOn(ctx, s.adminURL, "CREATE ROLE "+ident(role)+" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '"+password+"'"); err != nil {
		t.Fatalf("dbtest: create role %s: %v", role, err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		if err := s.drop(ctx, name); err != nil {
			t.Errorf("dbtest: drop database %s: %v", name, err)
		}
		if err := execOn(ctx, s.adminURL, "DROP ROLE IF EXISTS "+ident(role)); err != nil {
			t.Errorf("dbtest: drop role %s: %v", role, err)
		}
	})
	// template0: whatever a shared server added to template1 (extensions, say) stays out.
	if err := execOn(ctx, s.adminURL, "CREATE DATABASE "+ident(name)+" OWNER "+ident(role)+" TEMPLATE template0"); err != nil {
		t.Fatalf("dbtest: create database %s: %v", name, err)
	}
	u := *s.base
	u.Path = "/" + name
	u.RawPath = ""
	admin := u.String()
	// Explicit, whatever the server's version made of the public schema.
	if err := execOn(ctx, admin, "ALTER SCHEMA public OWNER TO "+ident(role)); err != nil {
		t.Fatalf("dbtest: give %s the public schema: %v", role, err)
	}
	u.User = url.UserPassword(role, password)
	return u.String(), admin
}
