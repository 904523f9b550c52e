package server

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// A sent complete or error frees its subscription's id; a next does not, whatever its payload says.
func TestSentFreesOnlyEndedSubscriptions(t *testing.T) {
	t.Parallel()
	ended := func(s *subscriptionIDs, id string) bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		_, ok := s.ids[id]
		return !ok
	}
	s := &subscriptionIDs{ids: map[string]*subscriptionID{}}
	for _, id := range []string{"1", "2", "3"} {
		assert.Nil(t, s.subscribe(id))
	}
	s.sent([]byte(`{"payload":{"data":{"memoryChanged":{"content":"complete"}}},"id":"1","type":"next"}`))
	s.sent([]byte(`{"payload":{"data":{"memoryChanged":{"content":"an \"error\" here"}}},"id":"2","type":"next"}`))
	assert.False(t, ended(s, "1"), "a next whose payload says complete")
	assert.False(t, ended(s, "2"), "a next whose payload says error")
	s.sent([]byte(`{"id":"1","type":"complete"}`))
	s.sent([]byte(`{"payload":[{"message":"x"}],"id":"2","type":"error"}`))
	assert.True(t, ended(s, "1"))
	assert.True(t, ended(s, "2"))
	assert.False(t, ended(s, "3"))
}
