package memory_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/open-bot/memory/internal/memory"
)

// TestTeammateNamesAreUnique: a create or a rename to a name another teammate has, in any case and
// with spaces around it, is refused with a message naming it; a teammate may change the case of its
// own name; a name freed by a rename can be taken.
func TestTeammateNamesAreUnique(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ada := f.teammate(t, "Ada")
	bo := f.teammate(t, "Bo")
	var bad *memory.ValidationError

	_, err := f.svc.CreateTeammate(user, "  ada ")
	require.ErrorAs(t, err, &bad)
	assert.Equal(t, "name: another teammate is already called Ada", bad.Error())
	_, err = f.svc.RenameTeammate(user, bo, "ADA")
	require.ErrorAs(t, err, &bad)
	assert.Equal(t, "name: another teammate is already called Ada", bad.Error())

	renamed, err := f.svc.RenameTeammate(user, ada, " ADA ")
	require.NoError(t, err, "its own name in another case")
	assert.Equal(t, "ADA", renamed.Name)
	_, err = f.svc.RenameTeammate(user, ada, "Grace")
	require.NoError(t, err)
	again, err := f.svc.CreateTeammate(user, "Ada")
	require.NoError(t, err, "the name is free again")
	assert.Equal(t, "Ada", again.Name)

	list, err := f.svc.Teammates(user)
	require.NoError(t, err)
	var names []string
	for _, tm := range list {
		names = append(names, tm.Name)
	}
	assert.Equal(t, []string{"Grace", "Bo", "Ada"}, names)
}
