package e2e

import (
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// GraphiQL is bundled: it loads, introspects and runs a query with every request going to the
// server itself (no CDN), so it works offline.
func TestGraphiQLLoadsNothingExternal(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		var (
			mu       sync.Mutex
			requests []string
		)
		// Listen on the tab before it navigates, so the page's very first requests are seen.
		record := chromedp.WithListener(func(ev any) {
			if ev, ok := ev.(*network.EventRequestWillBeSent); ok {
				mu.Lock()
				requests = append(requests, ev.Request.URL)
				mu.Unlock()
			}
		})
		// A browser context of its own, signed in with the login link: GraphiQL keeps its tabs in
		// the browser's storage, and another test's (or viewport's) tabs must not be restored here.
		p := openPageOn(t, srv, browser, vp, "/login?token="+srv.userToken, chromedp.WithNewBrowserContext(), record)
		p.waitVisible(tid("teammates-page"))
		p.navigate("/graphiql")
		if vp.phone {
			// GraphiQL's side-by-side panes don't fit a phone: it says so, and opens anyway on request.
			p.waitVisible(tid("graphiql-narrow"))
			if got := p.text(tid("graphiql-narrow")); !strings.Contains(got, "GraphiQL needs a wider screen") {
				t.Errorf("at %d px GraphiQL says %q, want that it needs a wider screen", vp.width, got)
			}
			p.assertAccessible("GraphiQL on a phone")
			p.shot("graphiql-narrow")
			p.click(tid("graphiql-open-anyway"))
		} else if eval[bool](p, `!!document.querySelector('[data-testid="graphiql-narrow"]')`) {
			t.Error("the desktop is told GraphiQL needs a wider screen")
		}
		p.waitVisible(`.graphiql-container`)
		// Run the query only once the editor shows it (GraphiQL fills the editor after it mounts).
		p.waitFor("the default query in the editor", `document.querySelector('.graphiql-query-editor')?.textContent.includes('teammates')`)
		p.click(`.graphiql-execute-button`)
		p.waitFor("the query's result", `document.querySelector('.result-window')?.textContent.includes('"teammates"')`)
		p.shot("graphiql")

		server, err := url.Parse(srv.base)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		defer mu.Unlock()
		if len(requests) < 3 {
			t.Fatalf("recorded only %d requests: %q", len(requests), requests)
		}
		sawGraphQL := false
		for _, raw := range requests {
			u, err := url.Parse(raw)
			if err != nil {
				t.Errorf("unparsable request URL %q", raw)
				continue
			}
			switch {
			case u.Scheme == "data" || u.Scheme == "blob":
				// inline, no network
			case u.Hostname() != "127.0.0.1" || u.Host != server.Host:
				t.Errorf("GraphiQL requested %s, which is not the local server %s", raw, server.Host)
			}
			if strings.HasSuffix(u.Path, "/graphql") {
				sawGraphQL = true
			}
		}
		if !sawGraphQL {
			t.Errorf("no request to /graphql among %q", requests)
		}
	})
}
