package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// addTool registers a tool whose arguments are decoded into In by decodeArgs and whose handler
// answers text (what the model reads) and Out (the same as structured content, described by an
// output schema inferred from Out). The SDK's typed AddTool would validate the arguments itself,
// but its messages quote the offending value — a memory text, say, 4,001 characters of it (F5) —
// so this one checks them against the input schema's own lists and answers with the argument's
// name and what it must be, never its value.
func addTool[In, Out any](s *mcp.Server, t tools, tool *mcp.Tool, h func(context.Context, *mcp.CallToolRequest, In) (string, Out, error)) {
	out, err := jsonschema.For[Out](nil)
	if err != nil {
		panic(fmt.Sprintf("mcpserver: output schema of %s: %v", tool.Name, err)) // a programming error
	}
	tool.OutputSchema = out
	spec := parseSpec(tool)
	s.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in In
		if err := spec.decode(req.Params.Arguments, &in); err != nil {
			t.metrics.MCPToolCall(tool.Name, "BAD_USER_INPUT")
			return errorResult("BAD_USER_INPUT: " + err.Error()), nil
		}
		text, result, err := h(ctx, req, in)
		if err != nil {
			text := t.toolError(ctx, err)
			t.metrics.MCPToolCall(tool.Name, errorCode(text))
			return errorResult(text), nil
		}
		t.metrics.MCPToolCall(tool.Name, "")
		r := textResult(text)
		r.StructuredContent = result
		return r, nil
	})
}

// argSpec is what decodeArgs needs from a tool's input schema.
type argSpec struct {
	tool     string
	names    []string          // the arguments, sorted
	types    map[string]string // argument → its JSON type ("integer", "string", "boolean")
	required []string
}

func parseSpec(tool *mcp.Tool) argSpec {
	raw, ok := tool.InputSchema.(json.RawMessage)
	if !ok {
		panic("mcpserver: input schemas are json.RawMessage")
	}
	var schema struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
		Required []string `json:"required"`
	}
	if err := json.Unmarshal(raw, &schema); err != nil {
		panic(fmt.Sprintf("mcpserver: input schema of %s: %v", tool.Name, err))
	}
	spec := argSpec{tool: tool.Name, types: map[string]string{}, required: schema.Required}
	for name, p := range schema.Properties {
		switch t := p.Type.(type) {
		case string:
			spec.types[name] = t
		case []any: // ["string", "null"]: an optional argument
			if len(t) > 0 {
				spec.types[name], _ = t[0].(string)
			}
		}
	}
	spec.names = slices.Sorted(maps.Keys(spec.types))
	return spec
}

// maxNameInMessage bounds how much of an unknown argument's name an error repeats.
const maxNameInMessage = 40

// decode unmarshals a tool's arguments into dst: a JSON object with the schema's arguments only,
// the required ones present, each of its type. Limits on values (lengths, ranges, kinds) are the
// domain's to check, with the domain's messages. The error names the argument and what it must be,
// and never repeats its value.
func (s argSpec) decode(raw json.RawMessage, dst any) error {
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		raw = json.RawMessage(`{}`)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		return errors.New("arguments: must be a JSON object")
	}
	for name := range fields {
		if _, ok := s.types[name]; !ok {
			if r := []rune(name); len(r) > maxNameInMessage {
				name = string(r[:maxNameInMessage]) + "…"
			}
			return fmt.Errorf("%q: %s takes no such argument; its arguments are %s", name, s.tool, strings.Join(s.names, ", "))
		}
	}
	for _, name := range s.required {
		if v, ok := fields[name]; !ok || string(bytes.TrimSpace(v)) == "null" {
			return fmt.Errorf("%s: required", name)
		}
	}
	if err := json.Unmarshal(raw, dst); err != nil {
		if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok && te.Field != "" {
			name := te.Field
			want := s.types[name]
			switch want {
			case "integer":
				want = "a whole number"
			case "boolean":
				want = "true or false"
			case "":
				want = "of another type"
			default:
				want = "a " + want
			}
			return fmt.Errorf("%s: must be %s", name, want)
		}
		return errors.New("arguments: could not be read")
	}
	return nil
}

// argumentName is the MCP name of a domain validation error's field: the domain names fields as
// GraphQL does (baseRevision), the tools as models expect (base_revision).
func argumentName(field string) string {
	if name, ok := argumentNames[field]; ok {
		return name
	}
	return field
}

var argumentNames = map[string]string{"baseRevision": "base_revision", "forEveryone": "for_everyone",
	"idempotencyKey": "idempotency_key"}
