package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeAI plays the OpenAI-compatible endpoints the server is configured with (I1, I2, I5):
// /v1/embeddings answers a small vector made from the letters of each text, /v1/chat/completions
// answers that the message holds nothing worth remembering. It counts what it was asked.
type fakeAI struct {
	*httptest.Server
	url         string
	embeddings  atomic.Int64
	completions atomic.Int64
}

func startFakeAI() *fakeAI {
	f := &fakeAI{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/embeddings", func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Input []string `json:"input"`
		}
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		f.embeddings.Add(1)
		type datum struct {
			Index     int       `json:"index"`
			Embedding []float32 `json:"embedding"`
		}
		out := struct {
			Data []datum `json:"data"`
		}{}
		for i, text := range req.Input {
			out.Data = append(out.Data, datum{Index: i, Embedding: letterVector(text)})
		}
		_ = json.NewEncoder(w).Encode(out)
	})
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		f.completions.Add(1)
		fmt.Fprint(w, `{"choices":[{"message":{"content":"{\"candidates\":[]}"},"finish_reason":"stop"}]}`)
	})
	f.Server = httptest.NewServer(mux)
	f.url = f.Server.URL
	return f
}

// letterVector is a deterministic stand-in for an embedding: how often each of 16 letter groups
// occurs in the text (texts with the same words are close, others far).
func letterVector(text string) []float32 {
	v := make([]float32, 16)
	for _, r := range strings.ToLower(text) {
		if r >= 'a' && r <= 'z' {
			v[(r-'a')%16]++
		}
	}
	v[15]++ // never the zero vector
	return v
}

// I1, I4, I5 with AI on (the demo's server is configured with the test's fake endpoints): Settings →
// AI names the host memory text and messages are sent to and the models, counts today's requests
// against the daily limit, and shows the embedding of the demo's memories complete; the recall
// preview then searches by meaning too.
func TestSettingsAIWithAIConfigured(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openDemoPage(t, vp, "/settings/ai")
		host := strings.TrimPrefix(demo.ai.url, "http://")
		p.waitVisible(tid("ai-section", `[data-state="ready"]`))
		p.waitText(tid("ai-embeddings-status"), "On")
		p.waitText(tid("ai-extraction-status"), "On")
		if got := p.text(tid("ai-embeddings-sent")); !strings.Contains(got, "The text of your memories is sent to "+host) {
			t.Errorf("embeddings say %q, want that memory text is sent to %s", got, host)
		}
		if got := p.text(tid("ai-extraction-sent")); !strings.Contains(got, "Your messages to teammates are sent to "+host) {
			t.Errorf("extraction says %q, want that messages are sent to %s", got, host)
		}
		if got := p.text(tid("ai-embeddings")); !strings.Contains(got, "fake-embedding") {
			t.Errorf("the embeddings card doesn't name the model: %q", got)
		}
		if eval[bool](p, `!!document.querySelector('[data-testid="ai-none"]')`) {
			t.Error("Settings → AI says no AI is configured")
		}
		// The demo's five active memories get embedded by the job runner; the page follows the progress.
		p.waitFor("every active memory embedded", `(() => {
			const m = document.querySelector('[data-testid="ai-progress"]')?.textContent.match(/(\d+) of (\d+) memories/);
			return m && Number(m[2]) > 0 && m[1] === m[2];
		})()`)
		p.waitFor("today's requests counted", `/^[1-9]\d* of 100 AI requests used today/.test(document.querySelector('[data-testid="ai-usage-text"]')?.textContent ?? '')`)
		if demo.ai.embeddings.Load() == 0 {
			t.Error("the server never called the embeddings endpoint")
		}
		p.assertAccessible("Settings → AI, configured")
		p.shot("ai-on")

		p.navigate("/")
		ada := p.teammateIDByName("Ada (demo)")
		p.navigate("/teammates/" + ada)
		// The sections above the preview load on their own and push it down as they do: a click
		// before they are all in can land where the button was (a CI run failed that way).
		for _, section := range []string{"suggestions-panel", "memory-list", "lessons-section"} {
			p.waitVisible(tid(section, `[data-state="ready"]`))
		}
		p.fill(tid("recall-query"), "where do I live")
		p.click(tid("recall-submit"))
		p.waitText(tid("recall-vector"), "Found by words and by meaning (embeddings).")
	})
}
