import { useCallback, useState } from 'react'
import type { AnyVariables, CombinedError, OperationResult } from 'urql'
import { useWhenConnectionBack } from './connection.ts'

/** The extensions.code values of RULES §5 that the web app tells apart. */
export type ErrorCode =
  | 'UNAUTHENTICATED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'BAD_USER_INPUT'
  | 'CONFLICT'
  | 'MEMORY_CHANGED'
  | 'INTERNAL'
  | 'UNAVAILABLE'

/** The first GraphQL error of err, with its extensions. */
function firstGraphQLError(err: CombinedError | undefined) {
  return err?.graphQLErrors[0]
}

/** Reports whether any GraphQL error in err carries extensions.code === code. */
export function hasErrorCode(err: CombinedError | undefined, code: ErrorCode): boolean {
  return !!err?.graphQLErrors.some((e) => e.extensions?.code === code)
}

/** The revision a CONFLICT error names as current (extensions.currentRevision), if it is one. */
export function conflictRevision(err: CombinedError | undefined): number | null {
  const e = err?.graphQLErrors.find((g) => g.extensions?.code === 'CONFLICT')
  const current = e?.extensions?.currentRevision
  return typeof current === 'number' ? current : null
}

/** Reports whether err is only a request that could not reach the server (no answer from it). */
export function isNetworkError(err: CombinedError | undefined): boolean {
  return !!err?.networkError && err.graphQLErrors.length === 0
}

/** A sentence for the user about err, in plain words. */
export function describeError(err: CombinedError | undefined): string {
  if (!err) return ''
  if (isNetworkError(err)) {
    return 'The server can’t be reached. Check that it is still running, then try again.'
  }
  const first = firstGraphQLError(err)
  switch (first?.extensions?.code) {
    case 'UNAUTHENTICATED':
      return 'You are signed out. Open the login link the server printed at start.'
    case 'FORBIDDEN':
      return 'This isn’t allowed with your sign-in.'
    case 'NOT_FOUND':
      return 'This no longer exists.'
    case 'CONFLICT':
      return 'Someone changed this in the meantime.'
    case 'BAD_USER_INPUT':
      // The server's validation messages name the field and the limit ("name: must not be empty");
      // they never contain memory text (F5), so they are shown, as a sentence about the field.
      return validationSentence(first.message, first.extensions?.field)
    case 'INTERNAL':
      return 'Something went wrong on the server. Try again in a moment.'
    case 'UNAVAILABLE':
      // The database is down or overloaded: nothing is wrong with what the user did.
      return 'The memory database is unavailable right now. Try again in a moment.'
    default:
      return first ? capitalize(first.message) : 'Something went wrong. Try again.'
  }
}

// What the API's input fields are called in the app's words.
const fieldNames: Record<string, string> = {
  name: 'the name',
  content: 'the text',
  key: 'the key',
  note: 'the note',
  search: 'the search',
  query: 'the request',
  expiresAt: 'the expiry time',
  message: 'the message',
  id: 'this',
}

/** "name: must not be empty" (field "name") as "The name must not be empty." */
export function validationSentence(message: string, field: unknown): string {
  const text = message.replace(/^\[GraphQL\]\s*/, '')
  if (typeof field === 'string' && text.startsWith(`${field}: `)) {
    const subject = fieldNames[field] ?? `the ${field}`
    return capitalize(`${subject} ${text.slice(field.length + 2)}`)
  }
  return capitalize(text)
}

/** s as a sentence: capital first, a full stop last; an empty message says something went wrong. */
function capitalize(s: string): string {
  const t = s.replace(/^\[GraphQL\]\s*/, '').trim()
  if (t === '') return 'Something went wrong. Try again.'
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]$/.test(t) ? '' : '.')
}

/**
 * The error of a component's calls, in words, and attempt(), which makes one: it clears the error,
 * runs the call and, when the answer has no data, says why; it answers the data, or undefined.
 * setError says one of the component's own (a check that failed before any call). An error that
 * says the server can't be reached goes when the connection comes back (or the next call succeeds).
 */
export function useCallError() {
  const [shown, setShown] = useState<{ text: string; network: boolean } | null>(null)
  const setError = useCallback((text: string | null) => setShown(text === null ? null : { text, network: false }), [])
  const attempt = useCallback(async <Data>(call: () => Promise<OperationResult<Data, AnyVariables>>): Promise<Data | undefined> => {
    setShown(null)
    const result = await call()
    if (!result.data) setShown({ text: describeError(result.error), network: isNetworkError(result.error) })
    return result.data
  }, [])
  useWhenConnectionBack(() => setShown((s) => (s?.network ? null : s)))
  return { error: shown?.text ?? null, setError, attempt }
}
