import { createContext } from 'react'
import type { Api } from './client.ts'

/** The Api beside urql's client, for the connection events (see useLiveSubscription). */
export const ApiContext = createContext<Api | null>(null)
