import { useId, useState } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError, hasErrorCode, useCallError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import { MemoryHistoryQuery } from '../memory/HistoryPanel.tsx'
import { ForgottenWarning, useForgottenGuard } from '../memory/ForgottenWarning.tsx'
import { ContentArea, KeyField, KindField, textRows } from '../memory/MemoryFields.tsx'
import {
  EditMemoryMutation,
  MemoryItemQuery,
  formatTime,
  kindLabel,
  scopeInputOf,
  sourceLabel,
  useRereadItem,
  type MemoryItem,
} from '../memory/model.ts'
import { Link, paths } from '../router.tsx'
import { DemoBadge, isDemo } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { Field } from '../ui/Field.tsx'
import type { MemoryKind } from '../gql/graphql.ts'
import type { Candidate } from './SuggestionsPanel.tsx'
import { wordDiff } from './wordDiff.ts'

// Confirming a plain suggestion answers with it, now memory; a proposal, with the item it changed.
const ConfirmCandidateMutation = graphql(`
  mutation ConfirmCandidate($input: ConfirmCandidateInput!) {
    confirmCandidate(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

const DismissCandidateMutation = graphql(`
  mutation DismissCandidate($input: DismissCandidateInput!) {
    dismissCandidate(input: $input) {
      item {
        id
        scope
        status
      }
    }
  }
`)

interface SuggestionCardProps {
  candidate: Candidate
  /** The suggestion is settled (confirmed, dismissed); what says how, for the panel's notice. */
  onDone(id: string, what: string, dismissed?: boolean): void
}

/** The target of a proposal as it is now: loading, gone (forgotten or no longer active), or read. */
type Target = { state: 'loading' } | { state: 'gone' } | { state: 'read'; item: MemoryItem }

/**
 * One suggestion. A plain one shows its text; a proposal to change a confirmed item (A4) shows the
 * change as a word diff against the item's current text. Every kind says why it waits (A8). Confirm
 * saves it (with the user's edit, if any).
 *
 * A proposal is stale once its item moved past the revision the teammate saw: confirmCandidate
 * would answer CONFLICT (R2). The card says so as soon as it knows — the item is the cache's, which
 * the scope's events keep current — or when a confirm did answer CONFLICT, and then shows the current
 * version beside the proposal (with what the teammate changed in the version it saw). The user can
 * apply the proposal to the current version (an ordinary edit based on the current revision, which
 * settles the proposal; one the user edited first is dismissed after it) or dismiss it.
 */
export function SuggestionCard({ candidate, onDone }: SuggestionCardProps) {
  const limits = useLimits()
  const [editing, setEditing] = useState(false)
  const [draft, setDraft] = useState(candidate.content)
  const { error, setError, attempt } = useCallError()
  const [conflict, setConflict] = useState(false)
  const [confirmState, confirmCandidate] = useMutation(ConfirmCandidateMutation)
  const [dismissState, dismissCandidate] = useMutation(DismissCandidateMutation)
  const [applyState, editMemory] = useMutation(EditMemoryMutation)
  const guard = useForgottenGuard(scopeInputOf(candidate.scope))
  const busy = confirmState.fetching || dismissState.fetching || applyState.fetching || guard.checking
  const id = useId()
  const targetId = candidate.targetItemId ?? null
  // A proposal to forget the target (A5): nothing was erased; it has no text of its own.
  const forget = candidate.proposesForget

  const target = useTarget(targetId)
  const reread = useRereadItem()
  const readTarget = () => {
    if (targetId) void reread(targetId)
  }

  const proposedText = editing ? draft : candidate.content
  const current = target.state === 'read' ? target.item : null
  // Kind and key can be changed while confirming; null: as suggested (for a proposal, as the memory has them).
  const [kindDraft, setKindDraft] = useState<MemoryKind | null>(null)
  const [keyDraft, setKeyDraft] = useState<string | null>(null)
  // Cancelling the edit drops every draft: the text, kind and key are as suggested again.
  const cancelEdit = () => {
    setEditing(false)
    setDraft(candidate.content)
    setKindDraft(null)
    setKeyDraft(null)
    guard.reset()
  }
  const baseKind = current?.kind ?? candidate.kind
  const baseKey = (targetId ? current?.key : candidate.key) ?? ''
  const kindChange = kindDraft !== null && kindDraft !== baseKind ? kindDraft : null
  const keyChange = keyDraft !== null && keyDraft.trim() !== baseKey.trim() ? keyDraft.trim() : null
  const changedSince = current !== null && current.revision !== candidate.targetRevision
  // The item as it is now, when the proposal can't be confirmed as it is.
  const staleCurrent = current !== null && (conflict || changedSince) ? current : null
  const stale = staleCurrent !== null
  const base = useProposalBase(targetId, candidate.targetRevision ?? null, staleCurrent?.revision ?? null, limits.pageSize)

  const confirm = async (confirmed = false) => {
    setError(null)
    const edited = editing && draft !== candidate.content
    if (edited && !(await guard.allows(draft, confirmed, setError))) return
    const result = await confirmCandidate({
      input: { id: candidate.id, content: edited ? draft : null, kind: kindChange, key: keyChange },
    })
    if (result.data) {
      onDone(
        candidate.id,
        forget ? 'Forgotten, as the teammate proposed.' : targetId ? 'Change applied to the memory.' : 'Confirmed: it is memory now.',
      )
    } else if (hasErrorCode(result.error, 'CONFLICT')) {
      // The page hadn't heard of the change yet: read the item as it is now, and compare.
      setConflict(true)
      readTarget()
    } else if (hasErrorCode(result.error, 'NOT_FOUND') && targetId) {
      readTarget()
    } else {
      setError(describeError(result.error))
    }
  }

  const dismiss = async () => {
    if (await attempt(() => dismissCandidate({ input: { id: candidate.id } }))) {
      onDone(candidate.id, forget ? 'Kept: the memory stays as it is.' : 'Dismissed: it won’t be remembered.', true)
    }
  }

  // After a conflict: the proposed text saved as an ordinary edit of the current version, then the
  // stale proposal dismissed.
  const applyToCurrent = async () => {
    if (!current) return
    setError(null)
    const result = await editMemory({ input: { id: current.id, baseRevision: current.revision, content: proposedText } })
    if (!result.data) {
      if (hasErrorCode(result.error, 'CONFLICT')) {
        readTarget()
        setError('The memory changed again just now. Compare the proposal with the newest version, then apply it again or dismiss it.')
      } else {
        setError(describeError(result.error))
      }
      return
    }
    // The item holding the proposal's own text settles the proposal (already applied); an edited
    // text leaves it waiting, so it is dismissed. BAD_USER_INPUT: it no longer waits — the edit
    // settled it after all (the same text but for case or punctuation).
    if (proposedText !== candidate.content) {
      const dismissed = await dismissCandidate({ input: { id: candidate.id } })
      if (!dismissed.data && !hasErrorCode(dismissed.error, 'BAD_USER_INPUT')) {
        // The change is saved; only the stale proposal is still listed.
        setError(`The change is saved, but the suggestion could not be dismissed: ${describeError(dismissed.error)}`)
        return
      }
    }
    onDone(candidate.id, 'Change applied to the current version of the memory.')
  }

  // Beside the confirm (or, once stale, the apply) button. A target that is gone can't be edited.
  const editAndDismiss = (
    <>
      {editing ? (
        <button type="button" className="button small" onClick={cancelEdit} disabled={busy} data-testid="suggestion-edit-cancel">
          Cancel edit
        </button>
      ) : (
        <button type="button" className="button small" onClick={() => setEditing(true)} disabled={busy || target.state === 'gone'} data-testid="suggestion-edit">
          Edit
        </button>
      )}
      <button type="button" className="button small" onClick={dismiss} disabled={busy} data-testid="suggestion-dismiss">
        Dismiss
      </button>
    </>
  )

  const origin = candidate.source === 'EXTRACTION' ? 'Found by automatic extraction' : `Suggested by ${sourceLabel(candidate.source)}`

  if (forget) {
    return (
      <ForgetProposal
        candidate={candidate}
        id={id}
        origin={origin}
        target={target}
        stale={current !== null && (conflict || changedSince)}
        busy={busy}
        error={error}
        confirmLabel={confirmState.fetching ? 'Forgetting…' : 'Forget it'}
        onConfirm={() => void confirm()}
        onDismiss={() => void dismiss()}
      />
    )
  }

  return (
    <li
      className="card suggestion"
      data-testid="suggestion"
      data-candidate-id={candidate.id}
      data-proposal={targetId ? 'change' : 'false'}
      aria-labelledby={`${id}-what`}
    >
      <div className="item-meta">
        <span className={`badge kind-${candidate.kind.toLowerCase()}`} data-testid="suggestion-kind">
          {kindLabel(candidate.kind)}
        </span>
        <span className="badge subtle" data-testid="suggestion-type">
          {targetId ? 'Change to a memory' : 'New memory'}
        </span>
        {isDemo(candidate.content) && <DemoBadge />}
        <TimesSuggested n={candidate.timesSuggested} />
        <span className="muted small" data-testid="suggestion-source">
          {origin} · {formatTime(candidate.createdAt)}
        </span>
      </div>

      {candidate.key && <h3 className="item-key">{candidate.key}</h3>}

      {targetId ? (
        <div id={`${id}-what`}>
          {target.state === 'loading' && <p className="muted small">Loading the memory it would change…</p>}
          {target.state === 'gone' && (
            <p className="message warn" data-testid="suggestion-target-gone">
              The memory this would change no longer exists (it was forgotten). Dismiss the suggestion.
            </p>
          )}
          {current && stale && (
            <div className="message warn" role="alert" data-testid="suggestion-conflict" data-current-revision={current.revision}>
              <p>
                <strong>This memory changed after the suggestion was made</strong> (the suggestion was made for revision{' '}
                {candidate.targetRevision}; it is now at revision {current.revision}), so it can’t be confirmed as it is.
                Compare the two, then apply the proposal to the current version, or dismiss it.
              </p>
            </div>
          )}
          {current && stale && (
            <div className="conflict-columns suggestion-compare" data-testid="suggestion-compare">
              <div className="conflict-side theirs">
                <span className="conflict-label" id={`${id}-current`}>
                  Current version, <span data-testid="suggestion-conflict-revision">revision {current.revision}</span>
                  <span className="muted small"> · {formatTime(current.updatedAt)}</span>
                </span>
                <p className="item-content" aria-labelledby={`${id}-current`} data-testid="suggestion-conflict-current">
                  {current.content}
                </p>
              </div>
              <div className="conflict-side proposal">
                <span className="conflict-label" id={`${id}-proposed`}>
                  {editing ? 'Proposed, with your changes' : `Proposed for revision ${candidate.targetRevision}`}
                </span>
                <p className="item-content" aria-labelledby={`${id}-proposed`} data-testid="suggestion-conflict-proposed">
                  {proposedText}
                </p>
                {base !== null && base !== proposedText && (
                  <p className="small muted diff" data-testid="suggestion-conflict-base">
                    What it changed in revision {candidate.targetRevision}: <Diff before={base} after={proposedText} />
                  </p>
                )}
              </div>
            </div>
          )}
          {current && (
            <>
              <p className="muted small diff-legend">
                {stale ? 'Applied to the current version, it would change it so' : 'Proposed change to what you confirmed'} (
                <del>removed</del>, <ins>added</ins>):
              </p>
              <p className="item-content diff" data-testid="suggestion-diff">
                <Diff before={current.content} after={proposedText} />
              </p>
            </>
          )}
        </div>
      ) : (
        !editing && (
          <p className="item-content" id={`${id}-what`} data-testid="suggestion-content">
            {candidate.content}
          </p>
        )
      )}

      <SuggestionSource candidate={candidate} />
      <WaitReason candidate={candidate} />

      {editing && (
        <Field htmlFor={`${id}-edit`} label={targetId ? 'The new text' : 'Text to remember'} className="suggestion-editor">
          <ContentArea id={`${id}-edit`} rows={textRows(draft, 10)} value={draft} onChange={setDraft} guard={guard} autoFocus testId="suggestion-edit-content" />
          <div className="form-row">
            <KindField id={`${id}-kind`} value={kindDraft ?? baseKind} onChange={setKindDraft} testId="suggestion-edit-kind" />
            <KeyField
              id={`${id}-key`}
              hint="optional"
              placeholder="A short label, e.g. coffee"
              value={keyDraft ?? baseKey}
              onChange={setKeyDraft}
              testId="suggestion-edit-key"
            />
          </div>
        </Field>
      )}

      {error && <ErrorMessage testId="suggestion-error">{error}</ErrorMessage>}

      {guard.warnedText !== null && guard.warnedText === draft ? (
        <ForgottenWarning busy={busy} onConfirm={() => void confirm(true)} onCancel={guard.reset} />
      ) : staleCurrent ? (
        <div className="actions compact">
          <button
            type="button"
            className="button primary small"
            onClick={applyToCurrent}
            disabled={busy || !proposedText.trim()}
            data-testid="suggestion-apply-current"
            data-base-revision={staleCurrent.revision}
          >
            {applyState.fetching ? 'Saving…' : `Apply to revision ${staleCurrent.revision}`}
          </button>
          {editAndDismiss}
        </div>
      ) : (
        <div className="actions compact">
          <button
            type="button"
            className="button primary small"
            onClick={() => void confirm()}
            disabled={busy || !proposedText.trim() || target.state === 'gone' || (targetId !== null && !current)}
            data-testid="suggestion-confirm"
          >
            {confirmState.fetching ? 'Saving…' : editing ? 'Confirm with my changes' : 'Confirm'}
          </button>
          {editAndDismiss}
        </div>
      )}
    </li>
  )
}

/** "Suggested 3 times": identical suggestions merged into one card while it waited. */
function TimesSuggested({ n }: { n: number }) {
  if (n < 2) return null
  return (
    <span className="badge subtle" data-testid="suggestion-times" title="The same suggestion was made again while it waited; it is shown once.">
      Suggested {n} times
    </span>
  )
}

/**
 * Where a suggestion came from: the sentence of your message a teammate got it from (or the quote
 * extraction found), when you wrote it, and a link to that conversation.
 */
function SuggestionSource({ candidate }: { candidate: Candidate }) {
  const runId = candidate.sourceRunId ?? null
  const teammate = candidate.sourceTeammate ?? null
  if (!candidate.evidence && !(runId && teammate)) return null
  return (
    <blockquote className="evidence" data-testid="suggestion-evidence">
      {candidate.evidence ? (
        <>
          <span className="muted small">From your message {formatDay(candidate.createdAt)}:</span>{' '}
          <span data-testid="suggestion-evidence-text">“{candidate.evidence}”</span>
        </>
      ) : (
        <span className="muted small">From your conversation {formatDay(candidate.createdAt)}.</span>
      )}
      {runId && teammate && (
        <>
          {' '}
          <Link to={paths.run(teammate.id, runId)} className="small" data-testid="suggestion-run-link">
            See the conversation with {teammate.name}
          </Link>
        </>
      )}
    </blockquote>
  )
}

/**
 * Why the suggestion waits for you instead of being memory already (A8), in the server's plain
 * words — which may quote the words of your message that decided. Quiet, under the evidence; nothing
 * for a suggestion made before reasons were kept.
 */
function WaitReason({ candidate }: { candidate: Candidate }) {
  if (!candidate.waitReason) return null
  return (
    <p className="wait-reason muted small" data-testid="suggestion-reason">
      <span className="wait-reason-label">Why it waits:</span> {candidate.waitReason}
    </p>
  )
}

/** "today", "yesterday", "on Tuesday" within a week, else "on 3 March". */
function formatDay(iso: string): string {
  const then = new Date(iso)
  const now = new Date()
  const days = Math.round((startOfDay(now) - startOfDay(then)) / 86_400_000)
  if (days <= 0) return 'today'
  if (days === 1) return 'yesterday'
  if (days < 7) return `on ${then.toLocaleDateString(undefined, { weekday: 'long' })}`
  return `on ${then.toLocaleDateString(undefined, { day: 'numeric', month: 'long' })}`
}

function startOfDay(d: Date): number {
  return new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime()
}

interface ForgetProposalProps {
  candidate: Candidate
  id: string
  origin: string
  target: Target
  /** The item changed after the proposal was made: confirming would answer CONFLICT. */
  stale: boolean
  busy: boolean
  error: string | null
  confirmLabel: string
  onConfirm(): void
  onDismiss(): void
}

/**
 * A teammate's proposal to forget a memory (A5): the user's message didn't clearly ask to forget
 * that item, so nothing was erased. The card shows the memory as it is now, why the forget waits
 * (A8), what forgetting erases and keeps (F1, F6), and offers Forget it or Keep it. Keep it is first in the tab order after
 * the text and is the safe choice; a proposal made for an older version can only be kept.
 */
function ForgetProposal({ candidate, id, origin, target, stale, busy, error, confirmLabel, onConfirm, onDismiss }: ForgetProposalProps) {
  const current = target.state === 'read' ? target.item : null
  return (
    <li className="card suggestion" data-testid="suggestion" data-candidate-id={candidate.id} data-proposal="forget" aria-labelledby={`${id}-what`}>
      <div className="item-meta">
        <span className={`badge kind-${candidate.kind.toLowerCase()}`}>{kindLabel(candidate.kind)}</span>
        <span className="badge subtle warn" data-testid="suggestion-type">
          Forget a memory
        </span>
        <span className="muted small" data-testid="suggestion-source">
          {origin} · {formatTime(candidate.createdAt)}
        </span>
      </div>
      <div id={`${id}-what`}>
        {target.state === 'loading' && <p className="muted small">Loading the memory it would forget…</p>}
        {target.state === 'gone' && (
          <p className="message warn" data-testid="suggestion-target-gone">
            This memory is already gone. Dismiss the suggestion.
          </p>
        )}
        {current && (
          <>
            <p className="muted small">A teammate proposed forgetting this memory. Your message didn’t clearly ask for it, so nothing was erased:</p>
            {current.key && <h3 className="item-key">{current.key}</h3>}
            <p className="item-content" data-testid="suggestion-forget-content">
              {current.content}
            </p>
            <p className="muted small" data-testid="suggestion-forget-explained">
              Forgetting erases it from memory, from every saved version and every embedding. Your conversations and earlier replies are
              kept.
            </p>
          </>
        )}
        <SuggestionSource candidate={candidate} />
        <WaitReason candidate={candidate} />
        {current && stale && (
          <p className="message warn" role="alert" data-testid="suggestion-conflict" data-current-revision={current.revision}>
            This memory changed after the teammate proposed forgetting it (revision {candidate.targetRevision}, now {current.revision}).
            Keep it, or forget it from its own card if you still want to.
          </p>
        )}
      </div>
      {error && <ErrorMessage testId="suggestion-error">{error}</ErrorMessage>}
      <div className="actions compact">
        <button type="button" className="button small" onClick={onDismiss} disabled={busy} data-testid="suggestion-dismiss">
          Keep it
        </button>
        {current && !stale && (
          <button type="button" className="button danger small" onClick={onConfirm} disabled={busy} data-testid="suggestion-confirm">
            {confirmLabel}
          </button>
        )}
      </div>
    </li>
  )
}

/** A word diff of two texts: removed words struck through, added ones underlined (and said so). */
function Diff({ before, after }: { before: string; after: string }) {
  return (
    <>
      {wordDiff(before, after).map((part, i) =>
        part.kind === 'same' ? (
          <span key={i}>{part.text}</span>
        ) : part.kind === 'removed' ? (
          <del key={i} data-testid="diff-removed">
            <span className="visually-hidden">[removed: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </del>
        ) : (
          <ins key={i} data-testid="diff-added">
            <span className="visually-hidden">[added: </span>
            {part.text}
            <span className="visually-hidden">]</span>
          </ins>
        ),
      )}
    </>
  )
}

/**
 * The target of a proposal as the cache holds it (the scope's events keep it current): loading, gone
 * (forgotten, or no longer active), or read.
 */
function useTarget(targetId: string | null): Target {
  const [{ data }] = useQuery({ query: MemoryItemQuery, variables: { id: targetId ?? '' }, pause: !targetId, requestPolicy: 'cache-and-network' })
  if (!data) return { state: 'loading' }
  const item = data.memoryItem
  return item && item.status === 'ACTIVE' ? { state: 'read', item } : { state: 'gone' }
}

/**
 * The text of the revision a stale proposal was made for, from the item's history (newest first, so
 * it is read down to that revision), or null while unknown. Only read while the proposal is stale:
 * currentRevision is then the item's revision now, and null otherwise.
 */
function useProposalBase(itemId: string | null, revision: number | null, currentRevision: number | null, pageSize: number): string | null {
  const first = revision !== null && currentRevision !== null ? Math.min(pageSize, currentRevision - revision + 1) : 0
  const [{ data }] = useQuery({ query: MemoryHistoryQuery, variables: { id: itemId ?? '', first }, pause: !itemId || first < 1 })
  if (first < 1) return null
  const found = data?.memoryItem?.id === itemId ? data?.memoryItem?.revisions.edges.find((e) => e.node.revision === revision) : undefined
  return found ? found.node.content : null
}
