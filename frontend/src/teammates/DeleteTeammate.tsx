import { useId, useState } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import { navigate, paths } from '../router.tsx'
import { BackupsKept } from '../ui/BackupsKept.tsx'
import { ConfirmButtons, Dialog } from '../ui/Dialog.tsx'
import { ErasureFacts } from '../ui/ErasureFacts.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'

// What the confirmation counts: read when it opens.
const TeammateActivityQuery = graphql(`
  query TeammateActivity($id: ID!) {
    teammate(id: $id) {
      id
      name
      activity {
        memories
        suggestions
        lastConversationAt
      }
    }
  }
`)

// The teammate leaves the cached list and every page that shows it (api/cache.ts).
const DeleteTeammateMutation = graphql(`
  mutation DeleteTeammate($input: DeleteTeammateInput!) {
    deleteTeammate(input: $input) {
      teammateId
      forgottenItems
      deletedRuns
      deletedThreads
      deletedMessages
    }
  }
`)

/** What the teammate list says after a delete (read once by TeammatesPage). */
let lastDeleted: string | null = null
export function takeDeletedNotice(): string | null {
  const s = lastDeleted
  lastDeleted = null
  return s
}

/**
 * The teammate's "Delete teammate" button and its confirmation, which says exactly what goes: every
 * memory and suggestion of the teammate, forgotten as Forget does (text, keys, every version,
 * embeddings), and all its conversations; and what stays: shared memory, and backups. Cancel has
 * the focus. After the delete the list of teammates opens, saying what was removed.
 */
export function DeleteTeammate({ teammate }: { teammate: { id: string; name: string } }) {
  const [open, setOpen] = useState(false)
  return (
    <section className="danger-zone" aria-label={`Delete ${teammate.name}`}>
      <button type="button" className="button small quiet-danger" onClick={() => setOpen(true)} data-testid="teammate-delete">
        Delete {teammate.name}…
      </button>
      {open && <DeleteDialog teammate={teammate} onClose={() => setOpen(false)} />}
    </section>
  )
}

function DeleteDialog({ teammate, onClose }: { teammate: { id: string; name: string }; onClose(): void }) {
  const titleId = useId()
  const [{ data, error: readError }] = useQuery({ query: TeammateActivityQuery, variables: { id: teammate.id }, requestPolicy: 'network-only' })
  const [{ fetching, error }, deleteTeammate] = useMutation(DeleteTeammateMutation)
  const activity = data?.teammate?.activity

  const remove = async () => {
    const result = await deleteTeammate({ input: { id: teammate.id } })
    if (!result.data) return
    const d = result.data.deleteTeammate
    lastDeleted =
      `Deleted ${teammate.name}: ${count(d.forgottenItems, 'memory or suggestion', 'memories and suggestions')} forgotten, ` +
      `${count(d.deletedRuns, 'conversation turn', 'conversation turns')} and ${count(d.deletedMessages, 'message', 'messages')} removed.`
    navigate(paths.teammates())
  }

  return (
    <Dialog title={`Delete ${teammate.name}?`} titleId={titleId} onClose={onClose} testId="delete-dialog">
      <ErasureFacts
        erased={
          <>
            <li data-testid="delete-memories" data-state={activity ? 'ready' : readError ? 'error' : 'loading'}>
              {activity
                ? `${count(activity.memories, 'memory', 'memories')} (lessons included) and ${count(activity.suggestions, 'suggestion', 'suggestions')} waiting`
                : 'Every memory, lesson and suggestion'}{' '}
              of {teammate.name}: the text and key of each, from every saved version and from search — as Forget does.
            </li>
            <li>
              {activity && !activity.lastConversationAt ? 'Its conversations (it has none yet)' : 'All its conversations'}: your
              messages, its replies, your ratings and the memory each reply was given.
            </li>
            <li>{teammate.name} itself: its name leaves every list and page, here and in every open window.</li>
          </>
        }
        kept={
          <>
            <li>About you and suggestions for it: other teammates keep them.</li>
            <li>Files you exported.</li>
            <BackupsKept again={`deletes ${teammate.name} again`} />
          </>
        }
        testId="delete-explanation"
      />
      <p className="muted small">This can’t be undone. To keep a copy of its memory, export it first.</p>
      {readError && !activity && (
        <p className="message warn" data-testid="delete-count-error">
          How much it keeps couldn’t be read just now ({describeError(readError)}); everything listed above goes all the same.
        </p>
      )}
      {error && <ErrorMessage testId="delete-error">{describeError(error)}</ErrorMessage>}
      <ConfirmButtons label={`Delete ${teammate.name}`} busyLabel="Deleting…" busy={fetching} onConfirm={() => void remove()} onCancel={onClose} testId="delete" />
    </Dialog>
  )
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}
