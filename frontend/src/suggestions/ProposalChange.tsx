import { formatTime, type MemoryItem } from '../memory/model.ts'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'
import { Diff } from './Diff.tsx'
import type { Candidate } from './SuggestionsPanel.tsx'
import type { Target } from './target.ts'

interface ProposalChangeProps {
  candidate: Candidate
  /** The card's id prefix: this block is `${id}-what`, which names the card. */
  id: string
  target: Target
  /** The proposal can't be confirmed as it is: the item moved past the revision it was made for. */
  stale: boolean
  editing: boolean
  /** The proposal's text, with the user's edit while editing. */
  proposedText: string
  /** The text of the revision a stale proposal was made for, once read; null while unknown. */
  base: string | null
}

/**
 * What a proposal to change a confirmed item (A4) would do: the change as a word diff against the
 * item's current text. Once stale, a warning says so, and the current version shows beside the
 * proposal (with what the teammate changed in the version it saw).
 */
export function ProposalChange({ candidate, id, target, stale, editing, proposedText, base }: ProposalChangeProps) {
  const current: MemoryItem | null = target.state === 'read' ? target.item : null
  return (
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
            <strong>This memory changed after the suggestion was made</strong>, so it can’t be confirmed as it is. Compare
            the two, then apply the proposal to the current version, or dismiss it.
          </p>
          <TechnicalDetails inline>
            <p>
              The suggestion was made for revision {candidate.targetRevision}; the memory is now at{' '}
              <span data-testid="suggestion-conflict-revision">revision {current.revision}</span>.
            </p>
          </TechnicalDetails>
        </div>
      )}
      {current && stale && (
        <div className="conflict-columns suggestion-compare" data-testid="suggestion-compare">
          <div className="conflict-side theirs">
            <span className="conflict-label" id={`${id}-current`}>
              Current version
              <span className="muted small"> · changed {formatTime(current.updatedAt)}</span>
            </span>
            <p className="item-content" aria-labelledby={`${id}-current`} data-testid="suggestion-conflict-current">
              {current.content}
            </p>
          </div>
          <div className="conflict-side proposal">
            <span className="conflict-label" id={`${id}-proposed`}>
              {editing ? 'Proposed, with your changes' : 'Proposed for the earlier version'}
            </span>
            <p className="item-content" aria-labelledby={`${id}-proposed`} data-testid="suggestion-conflict-proposed">
              {proposedText}
            </p>
            {base !== null && base !== proposedText && (
              <p className="small muted diff" data-testid="suggestion-conflict-base">
                What it changed in the earlier version: <Diff before={base} after={proposedText} />
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
  )
}
