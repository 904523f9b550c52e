package memory

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// docs/FORGETTING.md gives the purge's tables twice: what the embedded cluster runs, and what the
// operator of a DATABASE_URL server can run (F5). Both must be purgedTables, or a table that holds
// forgotten text is left out of one of them.
func TestDocsPurgeTheSameTables(t *testing.T) {
	doc, err := os.ReadFile("../../docs/FORGETTING.md")
	if err != nil {
		t.Fatal(err)
	}
	// The lists may wrap across lines of the document.
	text := strings.Join(strings.Fields(string(doc)), " ")
	want := strings.Join(purgedTables, ", ")
	lists := regexp.MustCompile(`(VACUUM \(FULL\)|ANALYZE) ((?:[a-z_]+, )*[a-z_]+)`).FindAllStringSubmatch(text, -1)
	var statements int
	for _, l := range lists {
		if l[2] == "pg_statistic" {
			continue
		}
		statements++
		if l[2] != want {
			t.Errorf("docs/FORGETTING.md: %s %s\nwant: %s %s", l[1], l[2], l[1], want)
		}
	}
	if statements != 3 { // the embedded VACUUM, the operator's VACUUM and ANALYZE
		t.Errorf("docs/FORGETTING.md names the purge's tables in %d statements, want 3", statements)
	}
}
