import { formatTime, kindLabel } from '../memory/model.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'
import { SuggestionSource, WaitReason } from './SuggestionEvidence.tsx'
import type { Candidate } from './SuggestionsPanel.tsx'
import type { Target } from './target.ts'

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
export function ForgetProposal({ candidate, id, origin, target, stale, busy, error, confirmLabel, onConfirm, onDismiss }: ForgetProposalProps) {
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
              Forgetting erases it from memory, from every saved version and from search, for good. Your conversations and earlier
              replies are kept.
            </p>
          </>
        )}
        <SuggestionSource candidate={candidate} />
        <WaitReason candidate={candidate} />
        {current && stale && (
          <div className="message warn" role="alert" data-testid="suggestion-conflict" data-current-revision={current.revision}>
            <p>
              This memory changed after the teammate proposed forgetting it. Keep it, or forget it from its own card if you
              still want to.
            </p>
            <TechnicalDetails inline>
              <p>
                Proposed for revision {candidate.targetRevision}; the memory is now at revision {current.revision}.
              </p>
            </TechnicalDetails>
          </div>
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
