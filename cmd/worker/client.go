package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// apiClient speaks GraphQL to cmd/api over HTTP, as any worker would.
type apiClient struct {
	url   string
	token string
	http  *http.Client
}

// newAPIClient reads MEMORY_API_URL and the worker token (MEMORY_WORKER_TOKEN, else the file the
// embedded database's API generated in MEMORY_DATA_DIR).
func newAPIClient() (*apiClient, error) {
	url := strings.TrimRight(envOr("MEMORY_API_URL", "http://127.0.0.1:8080"), "/")
	token := strings.TrimSpace(os.Getenv("MEMORY_WORKER_TOKEN"))
	if token == "" {
		path := filepath.Join(envOr("MEMORY_DATA_DIR", ".data"), "worker-token")
		b, err := os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("no worker token: set MEMORY_WORKER_TOKEN or run next to the API's data directory (%s)", path)
		}
		token = strings.TrimSpace(string(b))
	}
	return &apiClient{url: url + "/graphql", token: token, http: &http.Client{Timeout: 30 * time.Second}}, nil
}

func envOr(name, def string) string {
	if v := strings.TrimSpace(os.Getenv(name)); v != "" {
		return v
	}
	return def
}

// gqlError is a GraphQL error answer; Code is its extensions.code.
type gqlError struct {
	Message string
	Code    string
}

func (e *gqlError) Error() string { return e.Code + ": " + e.Message }

// do runs one operation with token (the worker's, or a run's) and decodes data into out.
func (c *apiClient) do(ctx context.Context, token, query string, vars map[string]any, out any) error {
	body, err := json.Marshal(map[string]any{"query": query, "variables": vars})
	if err != nil {
		return err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.url, bytes.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("call the API at %s: %w", c.url, err)
	}
	defer resp.Body.Close()
	var res struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Message    string         `json:"message"`
			Extensions map[string]any `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&res); err != nil {
		return fmt.Errorf("the API answered %s with no GraphQL response", resp.Status)
	}
	if len(res.Errors) > 0 {
		code, _ := res.Errors[0].Extensions["code"].(string)
		return &gqlError{Message: res.Errors[0].Message, Code: code}
	}
	if out == nil {
		return nil
	}
	if err := json.Unmarshal(res.Data, out); err != nil {
		return errors.New("unexpected response shape from the API")
	}
	return nil
}
