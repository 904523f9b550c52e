import { useCallback } from 'react'
import { useClient } from 'urql'
import { graphql } from '../gql'
import type { MemoryItemFieldsFragment, MemoryKind, MemorySource, RevisionAction, ScopeInput } from '../gql/graphql.ts'

export type MemoryItem = MemoryItemFieldsFragment

/** What the app shows of an item wherever it shows one (the cache keeps one record per item). */
export const MemoryItemFields = graphql(`
  fragment MemoryItemFields on MemoryItem {
    id
    scope
    kind
    key
    content
    status
    pinned
    revision
    lastAction
    source
    expiresAt
    expired
    createdAt
    updatedAt
    provenance {
      kind
      teammate {
        id
        name
      }
      runId
      quote
      at
      confirmedAt
    }
  }
`)

/** One item as it is now: read again when a save answered CONFLICT, and for a proposal's target. */
export const MemoryItemQuery = graphql(`
  query MemoryItem($id: ID!) {
    memoryItem(id: $id) {
      ...MemoryItemFields
    }
  }
`)

/**
 * useRereadItem returns a function that reads an item again from the server, after a save answered
 * CONFLICT: the cache then holds it as it is now, and every card that shows it says so. It resolves
 * once the cache has it.
 */
export function useRereadItem(): (id: string) => Promise<void> {
  const client = useClient()
  return useCallback(
    async (id: string) => {
      await client.query(MemoryItemQuery, { id }, { requestPolicy: 'network-only' }).toPromise()
    },
    [client],
  )
}

/** An edit of an item (the editor, pin and unpin, a proposal applied to the current version). */
export const EditMemoryMutation = graphql(`
  mutation EditMemory($input: EditMemoryInput!) {
    editMemory(input: $input) {
      item {
        ...MemoryItemFields
      }
    }
  }
`)

/** The kinds, in the order the app lists them. */
export const memoryKinds: { value: MemoryKind; label: string }[] = [
  { value: 'FACT', label: 'Fact' },
  { value: 'PREFERENCE', label: 'Preference' },
  { value: 'LESSON', label: 'Lesson' },
  { value: 'NOTE', label: 'Note' },
]

export function kindLabel(kind: MemoryKind): string {
  return memoryKinds.find((k) => k.value === kind)?.label ?? kind
}

const actionLabels: Record<RevisionAction, string> = {
  CREATE: 'Created',
  EDIT: 'Edited',
  CORRECT: 'Corrected',
  RESTORE: 'Restored',
  UNDO: 'Undone',
  CONFIRM: 'Confirmed',
  PIN: 'Pin changed',
  FORGET: 'Forgotten',
  DISMISS: 'Dismissed',
  RESOLVE: 'Settled (already applied)',
}

export function actionLabel(action: RevisionAction): string {
  return actionLabels[action] ?? action
}

/** "user", "teammate:<id>", "extraction", "import" in words. */
export function actorLabel(actor: string): string {
  if (actor === 'user') return 'you'
  if (actor.startsWith('teammate:')) return 'a teammate'
  if (actor === 'extraction') return 'automatic extraction'
  if (actor === 'import') return 'MEMORY.md import'
  return actor
}

/** A stable string for a scope, for effect dependencies and keys. */
export function scopeKey(scope: ScopeInput): string {
  return scope.teammateId ?? 'shared'
}

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' })

export function formatTime(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d)
}

const dateOnly = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' })

/** A day, in the user's words ("3 May 2025"). */
export function formatDate(iso: string): string {
  const d = new Date(iso)
  return Number.isNaN(d.getTime()) ? iso : dateOnly.format(d)
}

/** How long ago, in words ("just now", "5 minutes ago", "yesterday", "3 May 2025"). */
export function formatAgo(iso: string, now = Date.now()): string {
  const t = Date.parse(iso)
  if (Number.isNaN(t)) return iso
  const minutes = Math.round((now - t) / 60_000)
  if (minutes < 1) return 'just now'
  if (minutes < 60) return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`
  const hours = Math.round(minutes / 60)
  if (hours < 24) return hours === 1 ? '1 hour ago' : `${hours} hours ago`
  const days = Math.round(hours / 24)
  if (days === 1) return 'yesterday'
  if (days < 7) return `${days} days ago`
  return formatDate(iso)
}

/**
 * How a control names the item it acts on: its key, or the start of its text, in quotes
 * ("Edit ‘allergy’", "Forget ‘Takes the train to…’").
 */
export function itemLabel(item: Pick<MemoryItem, 'key' | 'content'>): string {
  const text = (item.key || item.content).trim().replace(/\s+/g, ' ')
  const short = [...text].length > 40 ? `${[...text].slice(0, 40).join('').trimEnd()}…` : text
  return `‘${short}’`
}

/** An RFC 3339 time as the value of an <input type="datetime-local"> (local time, minutes). */
export function toLocalInput(iso: string | null | undefined): string {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

/** The value of an <input type="datetime-local"> as RFC 3339, or null when empty or invalid. */
export function fromLocalInput(value: string): string | null {
  if (!value) return null
  const d = new Date(value)
  return Number.isNaN(d.getTime()) ? null : d.toISOString()
}

/** Whether the item's expiry has passed, by the server's flag or by the clock since it was read. */
export function isExpired(item: Pick<MemoryItem, 'expired' | 'expiresAt'>, now: number): boolean {
  return item.expired || (!!item.expiresAt && Date.parse(item.expiresAt) <= now)
}

/** The editable fields of an item, as an editor holds them. */
export interface MemoryDraft {
  content: string
  key: string
  kind: MemoryKind
  /** datetime-local value; empty means no expiry. */
  expires: string
}

export function draftOf(item: Pick<MemoryItem, 'content' | 'key' | 'kind' | 'expiresAt'>): MemoryDraft {
  return { content: item.content, key: item.key ?? '', kind: item.kind, expires: toLocalInput(item.expiresAt) }
}

/**
 * The editMemory fields that turn `from` into `to`, leaving out what is the same (the API keeps
 * omitted fields, and refuses an edit that changes nothing). Empty when nothing differs.
 */
export function draftChanges(from: MemoryDraft, to: MemoryDraft) {
  const changes: {
    content?: string
    key?: string
    kind?: MemoryKind
    expiresAt?: string
    clearExpiresAt?: boolean
  } = {}
  if (to.content !== from.content) changes.content = to.content
  if (to.key.trim() !== from.key.trim()) changes.key = to.key.trim()
  if (to.kind !== from.kind) changes.kind = to.kind
  if (to.expires !== from.expires) {
    const at = fromLocalInput(to.expires)
    if (at) changes.expiresAt = at
    else changes.clearExpiresAt = true
  }
  return changes
}

/** An item's scope string ("shared" or a teammate's id) as the API's ScopeInput. */
export function scopeInputOf(scope: string): ScopeInput {
  return { teammateId: scope === 'shared' ? null : scope }
}

const sourceLabels: Record<MemorySource, string> = {
  USER: 'you',
  TEAMMATE: 'a teammate',
  EXTRACTION: 'automatic extraction',
  IMPORT: 'the MEMORY.md import',
  FEEDBACK: 'your feedback',
}

/** Where an item came from, in words ("suggested by …"). */
export function sourceLabel(source: MemorySource): string {
  return sourceLabels[source] ?? source
}
