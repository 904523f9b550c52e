package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// recordWebSockets wraps the page's WebSocket so that the test can see each socket the app opens:
// whether it opened and the code it closed with (window.__sockets).
const recordWebSockets = `(() => {
  const Native = window.WebSocket
  window.__sockets = []
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args)
      const socket = { open: false, code: 0 }
      window.__sockets.push(socket)
      this.addEventListener('open', () => { socket.open = true })
      this.addEventListener('close', (e) => { socket.code = e.code })
    }
  }
})()`

// Sign out in the header ends the session on the server: the sign-in page shows, the old cookie
// no longer works, and the server closed the app's websocket (4403).
func TestSignOut(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		ctx := setup(t)
		// A browser context of its own, signed in with the login link: signing out must not end the
		// suite's shared session.
		p := openPageIn(t, browser, vp, "/login?token="+srv.userToken, chromedp.WithNewBrowserContext())
		p.waitVisible(tid("teammates-page"))
		p.do("record the websockets", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: recordWebSockets})
			return err
		}))
		p.navigate("/")
		p.waitVisible(tid("teammates-page"))
		// The teammates list is live: its subscription opens the websocket.
		p.poll("the app's websocket to open", `window.__sockets.some((s) => s.open && s.code === 0)`)

		var cookies []*network.Cookie
		p.do("read the session cookie", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			res, err := cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{srv.base}})
			if err == nil {
				cookies = res.Cookies
			}
			return err
		}))
		var cookie string
		for _, c := range cookies {
			cookie += c.Name + "=" + c.Value + "; "
		}
		if cookie == "" {
			t.Fatal("the signed-in browser has no cookie for the server")
		}
		if code := graphqlWithCookie(t, ctx, cookie); code != "" {
			t.Fatalf("before signing out a request with the browser's cookie answers %s, want data", code)
		}

		p.waitVisible(tid("sign-out"))
		if right := eval[float64](p, `document.querySelector('[data-testid="sign-out"]').getBoundingClientRect().right`); right > float64(vp.width) {
			t.Errorf("Sign out ends at x=%.0f, outside the %d px wide window", right, vp.width)
		}
		p.shot("signed-in")
		p.click(tid("sign-out"))
		p.waitVisible(tid("login-required"))
		p.assertNoHorizontalScroll()
		p.shot("signed-out")

		if code := graphqlWithCookie(t, ctx, cookie); code != "UNAUTHENTICATED" {
			t.Errorf("after signing out a request with the old cookie answers %q, want UNAUTHENTICATED", code)
		}
		p.poll("the websockets to close", `window.__sockets.length > 0 && window.__sockets.every((s) => s.code !== 0)`)
		if codes := eval[[]float64](p, `window.__sockets.map((s) => s.code)`); !containsCode(codes, 4403) {
			t.Errorf("the app's websockets closed with %v, want 4403 (the server ended the session)", codes)
		}
		// Reloading keeps the sign-in page: the browser holds no working session any more.
		p.navigate("/")
		p.waitVisible(tid("login-required"))
	})
}

// poll is waitFor for states the DOM doesn't show (a websocket's): it checks every 100 ms.
func (p *page) poll(what, expression string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](fmt.Sprintf(`(() => { try { return !!(%s) } catch (e) { return false } })()`, expression),
		chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(stepTimeout)))
	if err != nil {
		p.t.Fatalf("waiting for %s: %v", what, err)
	}
}

func containsCode(codes []float64, want float64) bool {
	for _, c := range codes {
		if c == want {
			return true
		}
	}
	return false
}

// graphqlWithCookie sends a query the user's credential may ask with cookie as the browser would
// (same origin), and returns the first error's code, or "" when the answer has data.
func graphqlWithCookie(t *testing.T, ctx context.Context, cookie string) string {
	t.Helper()
	body := strings.NewReader(`{"query":"{ candidates(scope: { teammateId: null }) { id } }"}`)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, srv.base+"/graphql", body)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", srv.base)
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("POST /graphql: %v", err)
	}
	defer resp.Body.Close()
	var out struct {
		Data   json.RawMessage `json:"data"`
		Errors []struct {
			Extensions struct {
				Code string `json:"code"`
			} `json:"extensions"`
		} `json:"errors"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		t.Fatalf("POST /graphql answered %d with no JSON: %v", resp.StatusCode, err)
	}
	if len(out.Errors) > 0 {
		return out.Errors[0].Extensions.Code
	}
	if len(out.Data) == 0 || string(out.Data) == "null" {
		t.Fatalf("POST /graphql answered %d with neither data nor errors", resp.StatusCode)
	}
	return ""
}
