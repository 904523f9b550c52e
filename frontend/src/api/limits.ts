import { createContext, useContext } from 'react'
import { graphql } from '../gql'
import type { LimitsFieldsFragment } from '../gql/graphql.ts'

/** What the API accepts, as its limits query says (graph/schema.graphqls, Limits). */
export type Limits = LimitsFieldsFragment

export const LimitsFields = graphql(`
  fragment LimitsFields on Limits {
    contentLength
    noteLength
    keyLength
    teammateNameLength
    searchLength
    messageLength
    pageSize
    bulkItems
    requestBytes
  }
`)

/**
 * The API's limits, read once with the session check (App.tsx) and handed to every screen, so that
 * forms say what is too long before anything is sent and no limit is copied from the Go code.
 */
export const LimitsContext = createContext<Limits | null>(null)

/** The API's limits; only under the signed-in app, which reads them before it shows anything. */
export function useLimits(): Limits {
  const limits = useContext(LimitsContext)
  if (!limits) throw new Error('useLimits outside the signed-in app')
  return limits
}
