package e2e

import (
	"strings"
	"testing"
)

// I5: with no AI configured (the suite's server has none), Settings → AI says memory works fully
// without it, that nothing is sent anywhere, and today's use against the default daily limit.
func TestSettingsAIWithoutAI(t *testing.T) {
	eachViewport(t, func(t *testing.T, vp viewport) {
		p := openPage(t, vp, "/settings")
		p.click(tid("settings-ai"))
		p.waitVisible(tid("ai-section", `[data-state="ready"]`))
		p.waitVisible(tid("settings-ai", `[aria-current="page"]`))
		if got := p.text(tid("ai-none")); !strings.Contains(got, "Memory works fully without AI") {
			t.Errorf("the AI section says %q, want it to say memory works without AI", got)
		}
		p.waitText(tid("ai-embeddings-status"), "Not configured")
		p.waitText(tid("ai-extraction-status"), "Not configured")
		if got := p.text(tid("ai-embeddings", " ", tid("ai-embeddings-sent"))); !strings.Contains(got, "not sent anywhere") {
			t.Errorf("embeddings say %q, want that memory text is not sent anywhere", got)
		}
		if got := p.text(tid("ai-extraction", " ", tid("ai-extraction-sent"))); !strings.Contains(got, "not sent anywhere") {
			t.Errorf("extraction says %q, want that messages are not sent anywhere", got)
		}
		if got := p.text(tid("ai-usage-text")); !strings.Contains(got, "0 of 100 AI requests used today") {
			t.Errorf("usage says %q, want 0 of 100", got)
		}
		p.assertNoHorizontalScroll()
		p.shot("ai")
	})
}
