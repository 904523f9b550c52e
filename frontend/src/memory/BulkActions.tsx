import { useId } from 'react'
import { useMutation, useQuery, type CombinedError } from 'urql'
import { describeError, hasErrorCode } from '../api/errors.ts'
import { graphql } from '../gql'
import { BackupsKept } from '../ui/BackupsKept.tsx'
import { ConfirmButtons, Dialog } from '../ui/Dialog.tsx'
import { ErasureFacts } from '../ui/ErasureFacts.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { useIdSet } from '../ui/useIdSet.ts'
import { CopiesList } from './ForgetDialog.tsx'
import { itemLabel, useRereadItem, type MemoryItem } from './model.ts'

// The items and the copies forgotten with them come back erased, and the cache keeps them so.
const ForgetMemoriesMutation = graphql(`
  mutation ForgetMemories($input: ForgetMemoriesInput!) {
    forgetMemories(input: $input) {
      items {
        ...MemoryItemFields
      }
      alsoForgotten {
        ...MemoryItemFields
      }
    }
  }
`)

// The same text elsewhere, as the single forget lists it.
const BulkCopiesQuery = graphql(`
  query BulkCopies($ids: [ID!]!) {
    copiesOf(ids: $ids) {
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
  }
`)

const PinMemoriesMutation = graphql(`
  mutation PinMemories($input: PinMemoriesInput!) {
    pinMemories(input: $input) {
      items {
        ...MemoryItemFields
      }
    }
  }
`)

interface BulkBarProps {
  /** The selected items as listed now (their current revisions). */
  selected: MemoryItem[]
  /** How many items are listed, for "Select all". */
  shown: number
  onSelectAll(): void
  onClear(): void
  /** Pinning changed these items. */
  onChanged(items: MemoryItem[]): void
  onForgetAsked(): void
  message: string | null
  setMessage(m: string | null): void
}

/**
 * What a failed bulk call says: which item changed (CONFLICT names it, and it is read again) or the
 * error in words.
 */
function useBulkFailure(): (error: CombinedError | undefined, selected: MemoryItem[], what: string) => string {
  const reread = useRereadItem()
  return (error, selected, what) => {
    if (hasErrorCode(error, 'CONFLICT')) {
      const id = error?.graphQLErrors.find((e) => e.extensions?.code === 'CONFLICT')?.extensions?.itemId
      const item = selected.find((i) => i.id === id)
      if (item) void reread(item.id)
      return `${item ? itemLabel(item) : 'One of them'} changed since you selected it, so nothing was ${what}. The list has been reloaded: check it and try again.`
    }
    return `Nothing was ${what}. ${describeError(error)}`
  }
}

/**
 * The bar of a list in selection mode: how many are selected, select all, pin, unpin and forget
 * them together (each in one transaction: all or none).
 */
export function BulkBar({ selected, shown, onSelectAll, onClear, onChanged, onForgetAsked, message, setMessage }: BulkBarProps) {
  const [{ fetching }, pinMemories] = useMutation(PinMemoriesMutation)
  const bulkFailure = useBulkFailure()
  const n = selected.length
  const pin = async (pinned: boolean) => {
    setMessage(null)
    const result = await pinMemories({ input: { pinned, items: selected.map((i) => ({ id: i.id, baseRevision: i.revision })) } })
    if (result.data) onChanged(result.data.pinMemories.items)
    else setMessage(bulkFailure(result.error, selected, pinned ? 'pinned' : 'unpinned'))
  }
  return (
    <div className="bulk-bar" role="group" aria-label="Selected memories" data-testid="bulk-bar" data-count={n}>
      <span className="bulk-count" aria-live="polite" data-testid="bulk-count">
        {n === 0 ? 'None selected' : n === 1 ? '1 selected' : `${n} selected`}
      </span>
      <button type="button" className="button small" onClick={onSelectAll} disabled={n === shown} data-testid="bulk-select-all">
        Select all {shown}
      </button>
      <button type="button" className="button small" onClick={() => void pin(true)} disabled={n === 0 || fetching} data-testid="bulk-pin">
        Pin
      </button>
      <button type="button" className="button small" onClick={() => void pin(false)} disabled={n === 0 || fetching} data-testid="bulk-unpin">
        Unpin
      </button>
      <button type="button" className="button small quiet-danger" onClick={onForgetAsked} disabled={n === 0 || fetching} data-testid="bulk-forget">
        Forget…
      </button>
      <button type="button" className="link-button" onClick={onClear} data-testid="bulk-done">
        Done
      </button>
      {message && (
        <ErrorMessage className="bulk-message" testId="bulk-error">
          {message}
        </ErrorMessage>
      )}
    </div>
  )
}

interface BulkForgetDialogProps {
  items: MemoryItem[]
  /** How many were forgotten (all of them). */
  onForgotten(n: number): void
  onFailed(message: string): void
  onClose(): void
}

/**
 * One confirmation for forgetting several items (F1, F6): it lists them, lists the same text
 * elsewhere (copies in other scopes, suggestions) and forgets the ticked ones in the same
 * transaction, and says what is erased and what is not, as the single Forget does. Cancel has the
 * focus.
 */
export function BulkForgetDialog({ items, onForgotten, onFailed, onClose }: BulkForgetDialogProps) {
  const [{ fetching }, forgetMemories] = useMutation(ForgetMemoriesMutation)
  const [{ data: copiesData }] = useQuery({ query: BulkCopiesQuery, variables: { ids: items.map((i) => i.id) }, requestPolicy: 'network-only' })
  // Copies the user unticked; every other copy is forgotten too.
  const [kept, keep] = useIdSet()
  const copies = copiesData?.copiesOf ?? []
  const bulkFailure = useBulkFailure()
  const titleId = useId()
  const n = items.length
  const forgetLabel = n === 1 ? 'Forget it' : `Forget all ${n}`
  const forget = async () => {
    const alsoForget = copies.filter((c) => !kept.has(c.id)).map((c) => c.id)
    const result = await forgetMemories({ input: { items: items.map((i) => ({ id: i.id, baseRevision: i.revision })), alsoForget } })
    if (result.data) onForgotten(result.data.forgetMemories.items.length)
    else onFailed(bulkFailure(result.error, items, 'forgotten'))
  }
  return (
    <Dialog title={n === 1 ? 'Forget this memory?' : `Forget these ${n} memories?`} titleId={titleId} onClose={onClose} testId="bulk-forget-dialog">
      <ul className="bulk-forget-list" data-testid="bulk-forget-list">
        {items.map((i) => (
          <li key={i.id}>
            {i.key && <strong>{i.key}: </strong>}
            {i.content}
          </li>
        ))}
      </ul>
      <CopiesList copies={copies} kept={kept} keep={keep} />
      <ErasureFacts
        erased={
          <>
            <li>Their text and keys, from every saved version in the history and from search.</li>
            <li>Suggestions to change them, and suggestions with the same text.</li>
          </>
        }
        erasedNote="All of them or, if one changed in the meantime, none. This can’t be undone."
        kept={
          <>
            <li>The original conversations they came from.</li>
            <li>Replies teammates already gave.</li>
            <BackupsKept again="forgets them again" />
          </>
        }
      />
      <ConfirmButtons label={forgetLabel} busyLabel="Forgetting…" busy={fetching} onConfirm={() => void forget()} onCancel={onClose} testId="bulk-forget" />
    </Dialog>
  )
}
