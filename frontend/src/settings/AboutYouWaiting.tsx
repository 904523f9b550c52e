import { useQuery } from 'urql'
import { graphql } from '../gql'
import { useLiveScope } from '../memory/useMemoryList.ts'

// How many suggestions wait for the user in the shared scope (About you). The list itself is read
// by SuggestionsPanel; this reads only its count.
const AboutYouWaitingQuery = graphql(`
  query AboutYouWaiting {
    memoryItems(scope: { teammateId: null }, status: CANDIDATE, first: 1) {
      totalCount
    }
  }
`)

/**
 * useAboutYouWaiting is how many About-you suggestions wait for the user, kept live: the shared
 * scope's memoryChanged events (A6) make the cache read the count again (api/cache.ts), so a
 * teammate's suggestion about the user shows at once wherever the count is shown.
 */
export function useAboutYouWaiting(): number {
  const [{ data }] = useQuery({ query: AboutYouWaitingQuery, requestPolicy: 'cache-and-network' })
  useLiveScope({ teammateId: null })
  return data?.memoryItems.totalCount ?? 0
}

/** A count of suggestions waiting, as a badge beside a link; nothing when none waits. */
export function WaitingBadge({ count, testId }: { count: number; testId: string }) {
  if (count <= 0) return null
  return (
    <span className="badge attention waiting-count" data-testid={testId} data-count={count}>
      <span aria-hidden="true">{count}</span>
      <span className="visually-hidden">{waitingWords(count)}</span>
    </span>
  )
}

/** "1 suggestion waiting", "3 suggestions waiting". */
export function waitingWords(count: number): string {
  return `${count} ${count === 1 ? 'suggestion' : 'suggestions'} waiting`
}
