import { useId, useState, type ReactNode } from 'react'
import { useMutation } from 'urql'
import { useWhenConnectionBack } from '../api/connection.ts'
import { conflictRevision, describeError, isNetworkError } from '../api/errors.ts'
import { graphql } from '../gql'
import { ForgetDialog } from './ForgetDialog.tsx'
import { HistoryPanel } from './HistoryPanel.tsx'
import { ItemSource } from './MemoryItemCardSource.tsx'
import { MemoryEditor } from './MemoryEditor.tsx'
import { DemoBadge, isDemo } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { useInPlaceForm } from '../ui/inPlaceForm.ts'
import { EditMemoryMutation, formatDate, formatTime, isExpired, itemLabel, kindLabel, useRereadItem, type MemoryItem } from './model.ts'

const UndoMemoryEditMutation = graphql(`
  mutation UndoMemoryEdit($input: UndoMemoryEditInput!) {
    undoMemoryEdit(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

interface MemoryItemCardProps {
  item: MemoryItem
  now: number
  /** More about the item, below its text (a lesson's reply). */
  children?: ReactNode
  /** Selection for bulk actions: when given, the card has a checkbox. */
  selection?: { selected: boolean; onToggle(selected: boolean): void }
}

/**
 * One item: what it says and how it is marked, edited in place, pinned, its history. After the user
 * saves, Undo stays offered for as long as the item is still at the revision that save produced
 * (R3: undo is based on that revision, so it would conflict afterwards anyway). What a save answers
 * is the item's new state in the cache, so the card, and every list that shows the item, follow it.
 */
export function MemoryItemCard({ item, now, children, selection }: MemoryItemCardProps) {
  const { open: editing, show: openEditor, close: closeEditor, opener: editButton } = useInPlaceForm()
  const [forgetting, setForgetting] = useState(false)
  const [historyOpen, setHistoryOpen] = useState(false)
  // The revision the user's last save (edit, pin, restore) produced.
  const [savedRevision, setSavedRevision] = useState<number | null>(null)
  const [message, setMessage] = useState<string | null>(null)
  // The message says the server can't be reached: it goes when the connection comes back.
  const [messageIsNetwork, setMessageIsNetwork] = useState(false)
  useWhenConnectionBack(() => {
    if (messageIsNetwork) setMessage(null)
  })
  const [pinState, editMemory] = useMutation(EditMemoryMutation)
  const [undoState, undoMemoryEdit] = useMutation(UndoMemoryEditMutation)
  const reread = useRereadItem()
  const expired = isExpired(item, now)
  const busy = pinState.fetching || undoState.fetching
  const contentId = useId()

  const saved = (next: MemoryItem) => {
    setSavedRevision(next.revision)
    setMessage(null)
  }

  const failed = (error: Parameters<typeof describeError>[0]) => {
    const current = conflictRevision(error)
    setMessageIsNetwork(isNetworkError(error))
    setMessage(
      current !== null
        ? 'This memory changed in the meantime; it has been reloaded, nothing was saved.'
        : describeError(error),
    )
    if (current !== null) void reread(item.id)
  }

  const togglePin = async () => {
    const result = await editMemory({ input: { id: item.id, baseRevision: item.revision, pinned: !item.pinned } })
    if (result.data) saved(result.data.editMemory.item)
    else failed(result.error)
  }

  const undo = async () => {
    if (savedRevision === null) return
    const result = await undoMemoryEdit({ input: { id: item.id, revision: savedRevision } })
    if (result.data) {
      setSavedRevision(null)
      setMessage(null)
    } else {
      failed(result.error)
    }
  }

  const canUndo = savedRevision !== null && savedRevision === item.revision && !editing
  // Each button says which item it acts on ("Edit 'allergy'"), so a list of cards doesn't read as a
  // column of identical "Edit" and "Forget" buttons to assistive technology.
  const label = itemLabel(item)
  const changed = item.updatedAt !== item.createdAt
  // A suggestion the user confirmed (or a proposal applied), unchanged since, says so.
  const confirmed = item.lastAction === 'CONFIRM'

  return (
    <li
      className={`card memory-item${item.pinned ? ' pinned' : ''}${expired ? ' expired' : ''}`}
      data-testid="memory-item"
      id={`memory-${item.id}`}
      data-item-id={item.id}
      data-pinned={item.pinned}
      data-revision={item.revision}
      data-expired={expired}
      data-selected={selection ? selection.selected : undefined}
    >
      <div className="item-meta">
        {selection && (
          <input
            type="checkbox"
            className="item-select"
            checked={selection.selected}
            onChange={(e) => selection.onToggle(e.target.checked)}
            aria-label={`Select ${label}`}
            data-testid="item-select"
          />
        )}
        <span className={`badge kind-${item.kind.toLowerCase()}`} data-testid="item-kind">
          {kindLabel(item.kind)}
        </span>
        {item.pinned && (
          <span className="badge pin" data-testid="item-pinned">
            Pinned
          </span>
        )}
        {isDemo(item.content) && <DemoBadge />}
        {expired && (
          <span className="badge warn" data-testid="item-expired" title={item.expiresAt ? `Expired ${formatTime(item.expiresAt)}` : undefined}>
            Expired
          </span>
        )}
        {!expired && item.expiresAt && (
          <span className="muted small" data-testid="item-expires">
            Expires {formatTime(item.expiresAt)}
          </span>
        )}
        <span className="spacer" />
        <span className="muted small item-dates">
          <time
            dateTime={changed ? item.updatedAt : item.createdAt}
            title={changed ? `Added ${formatTime(item.createdAt)}, last changed ${formatTime(item.updatedAt)}` : `Added ${formatTime(item.createdAt)}`}
            data-testid="item-date"
          >
            {confirmed ? `Confirmed ${dayInWords(item.updatedAt, now)}` : datedInWords(item, now)}
          </time>
        </span>
      </div>

      {editing ? (
        <MemoryEditor
          item={item}
          onSaved={(next) => {
            closeEditor()
            saved(next)
          }}
          onClose={closeEditor}
        />
      ) : (
        <>
          {item.key && (
            <h3 className="item-key" data-testid="item-key">
              {item.key}
            </h3>
          )}
          <p className="item-content" id={contentId} data-testid="item-content">
            {item.content}
          </p>
          <ItemSource item={item} now={now} />
          <div className="actions compact" role="group" aria-label="Actions" aria-describedby={contentId}>
            <button type="button" ref={editButton} className="button small" onClick={openEditor} disabled={busy} aria-label={`Edit ${label}`} data-testid="item-edit">
              Edit
            </button>
            <button
              type="button"
              className="button small"
              onClick={togglePin}
              disabled={busy}
              aria-label={`${item.pinned ? 'Unpin' : 'Pin'} ${label}`}
              data-testid="item-pin"
            >
              {item.pinned ? 'Unpin' : 'Pin'}
            </button>
            <button
              type="button"
              className="button small"
              onClick={() => setHistoryOpen((o) => !o)}
              aria-expanded={historyOpen}
              aria-label={`History of ${label}`}
              data-testid="item-history"
            >
              History
            </button>
            {canUndo && (
              <button type="button" className="button small accent" onClick={undo} disabled={busy} aria-label={`Undo the last change to ${label}`} data-testid="item-undo">
                Undo
              </button>
            )}
            <span className="spacer" />
            <button type="button" className="button small quiet-danger" onClick={() => setForgetting(true)} disabled={busy} aria-label={`Forget ${label}`} data-testid="item-forget">
              Forget
            </button>
          </div>
          {children}
        </>
      )}

      {forgetting && (
        <ForgetDialog
          item={item}
          onClose={() => setForgetting(false)}
          onForgotten={() => setForgetting(false)}
        />
      )}

      {message && <ErrorMessage testId="item-error">{message}</ErrorMessage>}

      {historyOpen && <HistoryPanel item={item} onRestored={saved} onClose={() => setHistoryOpen(false)} />}
    </li>
  )
}

/** A day as the card's line says it: "today" (the day of now), or the date. */
function dayInWords(iso: string, now: number): string {
  return new Date(iso).toDateString() === new Date(now).toDateString() ? 'today' : formatDate(iso)
}

/**
 * When the item was added or last changed, and how often it changed, in words ("Added today",
 * "Changed 2 times, last today"): every revision after the first is a change the user could see
 * (an edit, a pin, a restore, an undo). The revision number itself is in the history's technical
 * details.
 */
function datedInWords(item: Pick<MemoryItem, 'revision' | 'createdAt' | 'updatedAt'>, now: number): string {
  const changes = item.revision - 1
  if (changes > 0) return `Changed ${changes === 1 ? 'once' : `${changes} times`}, last ${dayInWords(item.updatedAt, now)}`
  if (item.updatedAt !== item.createdAt) return `Changed ${dayInWords(item.updatedAt, now)}`
  return `Added ${dayInWords(item.createdAt, now)}`
}
