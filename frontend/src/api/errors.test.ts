import { CombinedError } from 'urql'
import { describe, expect, it } from 'vitest'
import { conflictRevision, describeError, hasErrorCode, validationSentence } from './errors.ts'

/** A CombinedError as urql builds it from a response's errors. */
function graphQLError(...errors: { message: string; extensions?: Record<string, unknown> }[]): CombinedError {
  return new CombinedError({ graphQLErrors: errors })
}

const withCode = (code: string, message = 'message', extensions: Record<string, unknown> = {}) =>
  graphQLError({ message, extensions: { code, ...extensions } })

describe('describeError', () => {
  it('says nothing when there is no error', () => {
    expect(describeError(undefined)).toBe('')
  })

  it('says the server cannot be reached on a network error alone', () => {
    const err = new CombinedError({ networkError: new TypeError('Failed to fetch') })
    expect(describeError(err)).toBe('The server can’t be reached. Check that it is still running, then try again.')
  })

  it('prefers what the server answered to the network error beside it', () => {
    const err = new CombinedError({
      networkError: new Error('HTTP 409'),
      graphQLErrors: [{ message: 'conflict', extensions: { code: 'CONFLICT' } }],
    })
    expect(describeError(err)).toBe('Someone changed this in the meantime.')
  })

  it('has a plain sentence for each code of RULES §5, never the server’s own words for the masked ones', () => {
    expect(describeError(withCode('UNAUTHENTICATED'))).toBe('You are signed out. Open the login link the server printed at start.')
    expect(describeError(withCode('FORBIDDEN'))).toBe('This isn’t allowed with your sign-in.')
    expect(describeError(withCode('NOT_FOUND'))).toBe('This no longer exists.')
    expect(describeError(withCode('CONFLICT'))).toBe('Someone changed this in the meantime.')
    expect(describeError(withCode('INTERNAL', 'unexpected error'))).toBe('Something went wrong on the server. Try again in a moment.')
    expect(describeError(withCode('UNAVAILABLE', 'pool exhausted'))).toBe('The memory database is unavailable right now. Try again in a moment.')
  })

  it('turns a validation message into a sentence about the field', () => {
    expect(describeError(withCode('BAD_USER_INPUT', 'name: must not be empty', { field: 'name' }))).toBe('The name must not be empty.')
    expect(describeError(withCode('BAD_USER_INPUT', 'content: must be at most 4000 characters', { field: 'content' }))).toBe(
      'The text must be at most 4000 characters.',
    )
    // A field the app has no word for is named as the API names it.
    expect(describeError(withCode('BAD_USER_INPUT', 'teammateId: must be a UUID', { field: 'teammateId' }))).toBe(
      'The teammateId must be a UUID.',
    )
    // Without a field, or a message that doesn't start with it, the message is the sentence.
    expect(describeError(withCode('BAD_USER_INPUT', 'first must be between 1 and 100'))).toBe('First must be between 1 and 100.')
    expect(describeError(withCode('BAD_USER_INPUT', 'must not be empty', { field: 'name' }))).toBe('Must not be empty.')
  })

  it('shows an error without a known code as a sentence', () => {
    expect(describeError(withCode('DEPTH_LIMIT_EXCEEDED', 'the query is nested too deeply'))).toBe('The query is nested too deeply.')
    expect(describeError(graphQLError({ message: 'Cannot query field "x" on type "Query"' }))).toBe(
      'Cannot query field "x" on type "Query".',
    )
    // Ending punctuation is kept, not doubled; the first letter is capitalised in any script.
    expect(describeError(graphQLError({ message: 'Is the worker running?' }))).toBe('Is the worker running?')
    expect(describeError(graphQLError({ message: 'élan lost!' }))).toBe('Élan lost!')
    expect(describeError(graphQLError({ message: 'ωμέγα' }))).toBe('Ωμέγα.')
  })

  it('describes the first error when there are several', () => {
    const err = graphQLError(
      { message: 'gone', extensions: { code: 'NOT_FOUND' } },
      { message: 'conflict', extensions: { code: 'CONFLICT' } },
    )
    expect(describeError(err)).toBe('This no longer exists.')
  })

  it('has a fallback for an error with nothing in it', () => {
    expect(describeError(new CombinedError({}))).toBe('Something went wrong. Try again.')
  })

  it('never shows an empty message as a lone full stop', () => {
    expect(describeError(graphQLError({ message: '' }))).toBe('Something went wrong. Try again.')
    expect(describeError(graphQLError({ message: '[GraphQL]  ' }))).toBe('Something went wrong. Try again.')
    expect(describeError(withCode('BAD_USER_INPUT', ''))).toBe('Something went wrong. Try again.')
  })

  it('keeps a long message whole', () => {
    const long = 'limit '.repeat(2000).trim()
    expect(describeError(graphQLError({ message: long }))).toBe(`L${long.slice(1)}.`)
  })
})

describe('validationSentence', () => {
  it('drops urql’s [GraphQL] prefix', () => {
    expect(validationSentence('[GraphQL] key: must be one line', 'key')).toBe('The key must be one line.')
    expect(validationSentence('[GraphQL] something failed', undefined)).toBe('Something failed.')
  })

  it('ignores a field that is not a string', () => {
    expect(validationSentence('name: must not be empty', 42)).toBe('Name: must not be empty.')
  })
})

describe('hasErrorCode', () => {
  it('looks at every error, not only the first', () => {
    const err = graphQLError({ message: 'a', extensions: { code: 'NOT_FOUND' } }, { message: 'b', extensions: { code: 'CONFLICT' } })
    expect(hasErrorCode(err, 'CONFLICT')).toBe(true)
    expect(hasErrorCode(err, 'NOT_FOUND')).toBe(true)
    expect(hasErrorCode(err, 'FORBIDDEN')).toBe(false)
  })

  it('is false without an error, for a network error and for an error without extensions', () => {
    expect(hasErrorCode(undefined, 'CONFLICT')).toBe(false)
    expect(hasErrorCode(new CombinedError({ networkError: new Error('down') }), 'UNAVAILABLE')).toBe(false)
    expect(hasErrorCode(graphQLError({ message: 'x' }), 'INTERNAL')).toBe(false)
  })
})

describe('conflictRevision', () => {
  it('is the current revision a CONFLICT names', () => {
    expect(conflictRevision(withCode('CONFLICT', 'conflict', { currentRevision: 7 }))).toBe(7)
    expect(conflictRevision(withCode('CONFLICT', 'conflict', { currentRevision: 0 }))).toBe(0)
    const second = graphQLError({ message: 'a', extensions: { code: 'NOT_FOUND' } }, { message: 'b', extensions: { code: 'CONFLICT', currentRevision: 3 } })
    expect(conflictRevision(second)).toBe(3)
  })

  it('is null without a CONFLICT, or when its revision is not a number', () => {
    expect(conflictRevision(undefined)).toBeNull()
    expect(conflictRevision(withCode('NOT_FOUND', 'gone', { currentRevision: 7 }))).toBeNull()
    expect(conflictRevision(withCode('CONFLICT'))).toBeNull()
    expect(conflictRevision(withCode('CONFLICT', 'conflict', { currentRevision: '7' }))).toBeNull()
    expect(conflictRevision(withCode('CONFLICT', 'conflict', { currentRevision: null }))).toBeNull()
  })
})
