package server_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// A second teammate of the same name, in any case and with spaces around it, is refused as the
// web app shows it: BAD_USER_INPUT with the field and the name it clashes with; on create and on
// rename alike.
func TestTeammateNamesAreUniqueOverTheAPI(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.teammate("Ada")
	bo := w.teammate("Bo")
	create := `mutation($n: String!) { createTeammate(input: {name: $n}) { teammate { id } } }`
	rename := `mutation($id: ID!, $n: String!) { renameTeammate(input: {id: $id, name: $n}) { teammate { id } } }`
	for what, res := range map[string]interface{ Code() string }{
		"create": w.api.Do(t, user, create, map[string]any{"n": " ADA "}),
		"rename": w.api.Do(t, user, rename, map[string]any{"id": bo, "n": "ada"}),
	} {
		assert.Equal(t, "BAD_USER_INPUT", res.Code(), what)
	}
	res := w.api.Do(t, user, create, map[string]any{"n": "ada"})
	require.Len(t, res.Errors, 1)
	assert.Contains(t, res.Errors[0].Message, "another teammate is already called Ada")
	assert.Equal(t, "name", res.Errors[0].Extensions["field"])
	w.api.Must(t, user, rename, map[string]any{"id": bo, "n": "BO"}, &struct{}{})
}
