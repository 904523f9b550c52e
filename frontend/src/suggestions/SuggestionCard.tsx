import { useId, useState } from 'react'
import { useMutation } from 'urql'
import { describeError, hasErrorCode, useCallError } from '../api/errors.ts'
import { useLimits } from '../api/limits.ts'
import { graphql } from '../gql'
import { useForgottenGuard } from '../memory/ForgottenWarning.tsx'
import { EditMemoryMutation, formatTime, kindLabel, scopeInputOf, sourceLabel, useRereadItem } from '../memory/model.ts'
import { DemoBadge, isDemo } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import type { MemoryKind } from '../gql/graphql.ts'
import { ForgetProposal } from './ForgetProposal.tsx'
import { ProposalChange } from './ProposalChange.tsx'
import { SuggestionActions } from './SuggestionActions.tsx'
import { SuggestionEditor } from './SuggestionEditor.tsx'
import { SuggestionSource, WaitReason } from './SuggestionEvidence.tsx'
import type { Candidate, Undoable } from './SuggestionsPanel.tsx'
import { useProposalBase, useTarget } from './target.ts'

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
  /**
   * The suggestion is settled (confirmed, dismissed); what says how, for the panel's notice, and undo
   * what its Undo would take back (none for a proposal to forget: forgetting is for good).
   */
  onDone(id: string, what: string, undo?: Undoable): void
}

/**
 * One suggestion. A plain one shows its text; a proposal to change a confirmed item (A4) shows the
 * change as a word diff against the item's current text (ProposalChange); a proposal to forget one
 * (A5) has a card of its own (ForgetProposal). Every kind says where it came from and why it waits
 * (A8, SuggestionEvidence). Confirm saves it (with the user's edit, if any: SuggestionEditor).
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
      if (forget) onDone(candidate.id, 'Forgotten, as the teammate proposed.')
      else
        onDone(candidate.id, targetId ? 'Change applied to the memory.' : 'Confirmed: it is memory now.', {
          kind: 'confirm',
          revision: result.data.confirmCandidate.item.revision,
        })
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
      onDone(candidate.id, forget ? 'Kept: the memory stays as it is.' : 'Dismissed: it won’t be remembered.', { kind: 'dismiss' })
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
        <ProposalChange candidate={candidate} id={id} target={target} stale={stale} editing={editing} proposedText={proposedText} base={base} />
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
        <SuggestionEditor
          id={id}
          proposal={targetId !== null}
          text={draft}
          onText={setDraft}
          kind={kindDraft ?? baseKind}
          onKind={setKindDraft}
          itemKey={keyDraft ?? baseKey}
          onKey={setKeyDraft}
          guard={guard}
        />
      )}

      {error && <ErrorMessage testId="suggestion-error">{error}</ErrorMessage>}

      <SuggestionActions
        busy={busy}
        warned={guard.warnedText !== null && guard.warnedText === draft}
        onWarningConfirm={() => void confirm(true)}
        onWarningCancel={guard.reset}
        editing={editing}
        canEdit={target.state !== 'gone'}
        onEdit={() => setEditing(true)}
        onCancelEdit={cancelEdit}
        onDismiss={() => void dismiss()}
        applyRevision={staleCurrent ? staleCurrent.revision : null}
        canApply={!!proposedText.trim()}
        applying={applyState.fetching}
        onApply={() => void applyToCurrent()}
        canConfirm={!!proposedText.trim() && target.state !== 'gone' && (targetId === null || current !== null)}
        confirming={confirmState.fetching}
        onConfirm={() => void confirm()}
      />
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
