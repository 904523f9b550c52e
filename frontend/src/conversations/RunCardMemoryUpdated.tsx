import type { RunMemoryChangeKind } from '../gql/graphql.ts'
import { Link, paths } from '../router.tsx'
import type { Run } from './RunCard.tsx'

type Change = Run['memoryChanges'][number]

/** What a change did, before the item's words. */
const verbs: Record<Exclude<RunMemoryChangeKind, 'FORGOT' | 'PROPOSED_FORGET'>, string> = {
  SAVED: 'saved',
  SUGGESTED: 'suggested',
  PROPOSED_CHANGE: 'proposed changing',
  CORRECTED: 'changed',
}

/** Where the app shows an item of this scope: the teammate's Memory tab, or About you for shared memory. */
export function itemPath(scope: string, itemId: string): string {
  const page = scope === 'shared' ? paths.settings('about-you') : paths.teammate(scope)
  return `${page}#memory-${encodeURIComponent(itemId)}`
}

/**
 * The line under a teammate's reply that says what its memory tools did in that turn: saved,
 * suggested, proposed or forgot — each linked to the memory or the suggestion. A forgotten memory
 * is only counted ("forgot 1 memory"), never quoted, and so is anything forgotten since.
 */
export function MemoryUpdated({ changes }: { changes: readonly Change[] }) {
  if (changes.length === 0) return null
  const forgot = changes.filter((c) => c.kind === 'FORGOT').length
  const shown = changes.filter((c) => c.kind !== 'FORGOT')
  return (
    <div className="memory-updated muted small" data-testid="run-memory-updated">
      <span className="memory-updated-title">Memory updated:</span>{' '}
      <ul className="memory-updated-list">
        {shown.map((c, i) => (
          <li key={`${c.itemId}-${c.kind}-${i}`} data-testid="run-memory-change" data-kind={c.kind} data-item-id={c.itemId}>
            <ChangeText change={c} />
          </li>
        ))}
        {forgot > 0 && (
          <li data-testid="run-memory-change" data-kind="FORGOT">
            forgot {forgot === 1 ? '1 memory' : `${forgot} memories`}
          </li>
        )}
      </ul>
    </div>
  )
}

function ChangeText({ change }: { change: Change }) {
  if (change.kind === 'PROPOSED_FORGET') {
    return (
      <>
        proposed forgetting a memory{change.waiting && ' — '}
        {change.waiting && <Link to={itemPath(change.scope, change.itemId)}>waiting for you</Link>}
      </>
    )
  }
  if (change.kind === 'FORGOT') return <>forgot 1 memory</>
  const verb = verbs[change.kind]
  if (change.label === null || change.label === undefined) return <>{verb} a memory that was forgotten since</>
  return (
    <>
      {verb}{' '}
      <Link to={itemPath(change.scope, change.itemId)} data-testid="run-memory-change-link">
        “{change.label}”
      </Link>
      {change.waiting && ' — waiting for you'}
    </>
  )
}
