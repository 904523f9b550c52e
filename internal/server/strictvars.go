package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/99designs/gqlgen/graphql"
	"github.com/99designs/gqlgen/graphql/errcode"
	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
)

// strictVariables applies GraphQL's input coercion rules (spec §3.5) to variables, which gqlgen's
// validator relaxes: it takes a JSON number for a String ("5" is stored as the text "5"), a string
// of digits for an Int, an enum value in any case (and the enum's unmarshaler then made "preference"
// a FACT), and reports a fraction given for an Int as "cannot use value 0". Here a String takes only
// a JSON string, an Int only a JSON integer within 32 bits, a Float a number, a Boolean a boolean, an
// ID a string or an integer, an enum exactly one of its names; lists and input objects are walked. The message quotes the value as it was sent (bounded), and the code is gqlgen's
// GRAPHQL_VALIDATION_FAILED, as for every other variable that doesn't coerce.
//
// It reads the document before gqlgen does: gqlgen coerces variables before any operation-context
// hook runs, so this must run as a parameter mutator, after the persisted-query extension has
// filled in the query. A document gqlgen has already parsed and validated comes from gqlgen's own
// query cache (docs, shared with the executor); any other is parsed here, and only when there are
// variables. Anything it can't read (a syntax error, an unknown operation, an unknown type) it
// leaves to gqlgen, which reports it.
type strictVariables struct {
	schema *ast.Schema
	docs   graphql.Cache[*ast.QueryDocument]
}

var (
	_ graphql.HandlerExtension          = strictVariables{}
	_ graphql.OperationParameterMutator = strictVariables{}
)

func (strictVariables) ExtensionName() string { return "StrictVariables" }

func (strictVariables) Validate(graphql.ExecutableSchema) error { return nil }

// jsonInteger is the grammar of a JSON number without fraction or exponent.
var jsonInteger = regexp.MustCompile(`^-?(0|[1-9][0-9]*)$`)

func (s strictVariables) MutateOperationParameters(ctx context.Context, params *graphql.RawParams) *gqlerror.Error {
	if len(params.Variables) == 0 || params.Query == "" {
		return nil
	}
	doc, ok := s.docs.Get(ctx, params.Query)
	if !ok {
		var err error
		if doc, err = parser.ParseQuery(&ast.Source{Input: params.Query}); err != nil {
			return nil
		}
	}
	op := doc.Operations.ForName(params.OperationName)
	if op == nil {
		return nil
	}
	for _, def := range op.VariableDefinitions {
		v, ok := params.Variables[def.Variable]
		if !ok {
			continue
		}
		if err := s.check(def.Type, v, ast.Path{ast.PathName("variable"), ast.PathName(def.Variable)}); err != nil {
			errcode.Set(err, errcode.ValidationFailed)
			return err
		}
	}
	return nil
}

// maxDepth bounds the walk: the request body bounds the value's size, this its nesting.
const maxDepth = 32

func (s strictVariables) check(typ *ast.Type, v any, path ast.Path) *gqlerror.Error {
	if len(path) > maxDepth+2 || v == nil {
		return nil // gqlgen reports a null given for a required value, and what nests too deep
	}
	if typ.Elem != nil {
		list, ok := v.([]any)
		if !ok {
			return s.check(typ.Elem, v, path) // a single value is a list of one
		}
		for i, e := range list {
			if err := s.check(typ.Elem, e, append(path, ast.PathIndex(i))); err != nil {
				return err
			}
		}
		return nil
	}
	def := s.schema.Types[typ.NamedType]
	if def == nil {
		return nil
	}
	switch def.Kind {
	case ast.InputObject:
		fields, ok := v.(map[string]any)
		if !ok {
			return refuse(path, v, def.Name)
		}
		for _, f := range def.Fields {
			fv, ok := fields[f.Name]
			if !ok {
				continue
			}
			if err := s.check(f.Type, fv, append(path, ast.PathName(f.Name))); err != nil {
				return err
			}
		}
		return nil
	case ast.Enum:
		// Exactly one of the names, case and all: gqlgen's validator compares them case-blind, and
		// the enum's own unmarshaler then took "preference" for FACT and "down" for no rating.
		name, ok := v.(string)
		if !ok {
			return refuse(path, v, def.Name)
		}
		var names []string
		for _, e := range def.EnumValues {
			if e.Name == name {
				return nil
			}
			names = append(names, e.Name)
		}
		return gqlerror.ErrorPathf(path, "cannot use a string that is none of %s's values (%s; they are case-sensitive)", def.Name, strings.Join(names, ", "))
	case ast.Scalar:
		if !scalarAccepts(def.Name, v) {
			return refuse(path, v, def.Name)
		}
	}
	return nil
}

// scalarAccepts says whether v, decoded from JSON (numbers as json.Number, or float64 when the
// decoder didn't keep them), is a valid input for the built-in scalar name. Custom scalars decide
// for themselves (their unmarshalers return typed errors).
func scalarAccepts(name string, v any) bool {
	switch name {
	case "String":
		_, ok := v.(string)
		return ok
	case "Boolean":
		_, ok := v.(bool)
		return ok
	case "Int":
		return isInt32(v)
	case "Float":
		switch n := v.(type) {
		case json.Number:
			f, err := n.Float64()
			return err == nil && !math.IsInf(f, 0)
		case float64:
			return true
		}
		return false
	case "ID":
		if _, ok := v.(string); ok {
			return true
		}
		return isInteger(v)
	}
	return true
}

func isInt32(v any) bool {
	switch n := v.(type) {
	case json.Number:
		if !jsonInteger.MatchString(string(n)) {
			return false
		}
		i, err := strconv.ParseInt(string(n), 10, 32)
		return err == nil && i == int64(int32(i))
	case float64:
		return n == math.Trunc(n) && n >= math.MinInt32 && n <= math.MaxInt32
	}
	return false
}

func isInteger(v any) bool {
	switch n := v.(type) {
	case json.Number:
		return jsonInteger.MatchString(string(n))
	case float64:
		return n == math.Trunc(n) && !math.IsInf(n, 0)
	}
	return false
}

// refuse is the error for v at path, which isn't a want. It quotes a number or a boolean as sent
// (at most 40 characters) but never a string, which may be memory text (F5).
func refuse(path ast.Path, v any, want string) *gqlerror.Error {
	var shown string
	switch x := v.(type) {
	case string:
		shown = "a string"
	case json.Number:
		shown = clip(string(x))
	case float64:
		shown = strconv.FormatFloat(x, 'g', -1, 64)
	case bool:
		shown = strconv.FormatBool(x)
	case map[string]any:
		shown = "an object"
	case []any:
		shown = "a list"
	default:
		shown = fmt.Sprintf("a %T", v)
	}
	return gqlerror.ErrorPathf(path, "cannot use %s as %s", shown, want)
}

// clip shortens a number's digits (ASCII) to 40.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	return s[:40] + "…"
}
