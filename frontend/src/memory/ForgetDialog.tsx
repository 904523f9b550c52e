import { useId } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import { BackupsKept } from '../ui/BackupsKept.tsx'
import { ConfirmButtons, Dialog } from '../ui/Dialog.tsx'
import { ErasureFacts } from '../ui/ErasureFacts.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'
import { useIdSet } from '../ui/useIdSet.ts'
import type { MemoryItem } from './model.ts'

// The item and the copies forgotten with it come back erased (no content, no key), and the cache
// keeps them so: no text of a forgotten item stays in the page.
const ForgetMemoryMutation = graphql(`
  mutation ForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) {
      item {
        ...MemoryItemFields
      }
      alsoForgotten {
        ...MemoryItemFields
      }
    }
  }
`)

// What the forget dialog shows besides the item: the same text elsewhere, and what the storage keeps.
const ForgetInfoQuery = graphql(`
  query ForgetInfo($id: ID!) {
    copies(id: $id) {
      id
      scope
      status
      key
      content
      teammate {
        id
        name
      }
    }
    erasure {
      purged
      purgeDelaySeconds
    }
  }
`)

interface ForgetDialogProps {
  item: Pick<MemoryItem, 'id' | 'content' | 'key'>
  /** The item is forgotten (the cache says so, and the lists it was in drop it). */
  onForgotten(): void
  onClose(): void
}

/**
 * The confirmation before forgetting an item (F1, F6): it says plainly what is erased — the text and
 * key from every saved version and from search, and suggestions to change it, at once, for good — and what
 * is not: the original conversations, replies already given, and backups made before (a restore
 * forgets it again: BackupsKept). It lists the same text elsewhere (copies in other scopes,
 * suggestions) and forgets the ticked ones in the same transaction,
 * and, under Technical details, how: the embeddings deleted, and what the database's files keep:
 * nothing after the purge when the service runs its own database, the WAL, backups and replicas of a
 * server given by DATABASE_URL.
 */
export function ForgetDialog({ item, onForgotten, onClose }: ForgetDialogProps) {
  const [{ fetching, error }, forgetMemory] = useMutation(ForgetMemoryMutation)
  const [{ data: info }] = useQuery({ query: ForgetInfoQuery, variables: { id: item.id }, requestPolicy: 'network-only' })
  // Copies the user unticked; every other copy is forgotten too.
  const [kept, keep] = useIdSet()
  const titleId = useId()
  const copies = info?.copies ?? []
  const erasure = info?.erasure

  const forget = async () => {
    const alsoForget = copies.filter((c) => !kept.has(c.id)).map((c) => c.id)
    const result = await forgetMemory({ input: { id: item.id, alsoForget } })
    if (result.data) onForgotten()
  }

  return (
    <Dialog title="Forget this memory?" titleId={titleId} onClose={onClose} testId="forget-dialog">
      <blockquote className="forget-quote" data-testid="forget-quote">
        {item.key && <strong className="forget-key">{item.key}</strong>}
        <span>{item.content}</span>
      </blockquote>

      <CopiesList copies={copies} kept={kept} keep={keep} />

      <ErasureFacts
        erased={
          <>
            <li>This text and its key, from every saved version in the history and from search.</li>
            <li>Suggestions to change it, and suggestions with the same text.</li>
          </>
        }
        erasedNote="It leaves memory immediately: no teammate is given it from now on. This can’t be undone."
        kept={
          <>
            <li>The original conversations it came from.</li>
            <li>Replies teammates already gave.</li>
            <BackupsKept again="forgets this again" />
          </>
        }
        testId="forget-explanation"
      />
      <TechnicalDetails inline testId="forget-details">
        <ul className="details-list small">
          <li>Every embedding made from it is deleted (the index used to find related memories by meaning).</li>
          {erasure && (
            <li data-testid="forget-storage">
              {erasure.purged
                ? `Within ${erasure.purgeDelaySeconds ?? 0} seconds, plus the time the rewrite takes, this service's own database files are rewritten so they keep no trace of it (old row versions, statistics and the write-ahead log).`
                : 'This service uses a database server it does not run (DATABASE_URL): the text stays in that server\'s free space, write-ahead log and archives until they are rewritten or roll over, and in its backups and replicas. docs/FORGETTING.md says what its operator can run.'}
            </li>
          )}
        </ul>
      </TechnicalDetails>
      <p className="muted small">If you save the same text again later, you will be asked to confirm first.</p>

      {error && <ErrorMessage testId="forget-error">{describeError(error)}</ErrorMessage>}
      <ConfirmButtons label="Forget" busyLabel="Forgetting…" busy={fetching} onConfirm={() => void forget()} onCancel={onClose} testId="forget" />
    </Dialog>
  )
}

interface Copy {
  id: string
  status: string
  key?: string | null
  content: string
  teammate?: { id: string; name: string } | null
}

interface CopiesListProps {
  copies: Copy[]
  /** The copies the user unticked. */
  kept: ReadonlySet<string>
  keep(id: string, kept: boolean): void
}

/** The same text elsewhere, each ticked to be forgotten too; nothing when there is none. */
export function CopiesList({ copies, kept, keep }: CopiesListProps) {
  if (copies.length === 0) return null
  return (
    <section className="forget-copies" data-testid="forget-copies">
      <h3 className="forget-heading">The same text elsewhere — forget these too</h3>
      <ul>
        {copies.map((c) => (
          <li key={c.id}>
            <label className="check">
              <input type="checkbox" checked={!kept.has(c.id)} onChange={(e) => keep(c.id, !e.target.checked)} data-testid="forget-copy" />
              <span>
                {c.key && <strong>{c.key}: </strong>}
                {c.content}{' '}
                <span className="muted">
                  — {c.teammate ? `only ${c.teammate.name}` : 'About you'}
                  {c.status === 'CANDIDATE' ? ', a suggestion' : c.status === 'DISMISSED' ? ', a dismissed suggestion' : ''}
                </span>
              </span>
            </label>
          </li>
        ))}
      </ul>
    </section>
  )
}
