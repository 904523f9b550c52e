import { useEffect, useState, type FormEvent } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLiveSubscription } from '../api/live.ts'
import { graphql } from '../gql'
import { formatAgo, formatTime } from '../memory/model.ts'
import { Link, paths } from '../router.tsx'
import { DemoBadge, DemoNoticeDismiss, isDemo, useDemoNotice } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { RemoveDemo } from '../ui/RemoveDemo.tsx'
import { takeDeletedNotice } from './DeleteTeammate.tsx'
import { MemorySearch } from './MemorySearch.tsx'
import { MemorySwitchMarker } from './MemorySwitch.tsx'
import { PageHeading } from '../ui/PageHeading.tsx'
import { TeammateNameField, useTeammateName } from './TeammateNameField.tsx'
import { useAboutYouWaiting } from '../settings/AboutYouWaiting.tsx'
import { WaitingSummary } from './WaitingSummary.tsx'

/** What a row of the teammate list shows. */
export const TeammateRowFields = graphql(`
  fragment TeammateRow on Teammate {
    id
    name
    createdAt
    useMemory
    saveMemory
    activity {
      memories
      suggestions
      lastConversationAt
      lastActivityAt
    }
  }
`)

const TeammatesQuery = graphql(`
  query Teammates {
    teammates {
      ...TeammateRow
    }
  }
`)

// The new teammate joins the cached list (api/cache.ts), with what its row shows.
const CreateTeammateMutation = graphql(`
  mutation CreateTeammate($input: CreateTeammateInput!) {
    createTeammate(input: $input) {
      teammate {
        ...TeammateRow
      }
    }
  }
`)

/**
 * Every teammate created, renamed, switched or deleted: its updater (api/cache.ts) adds it to the
 * list, drops it, or records its new name or memory switch. The teammate's page follows it too.
 */
export const TeammatesChangedSubscription = graphql(`
  subscription TeammatesChanged {
    teammatesChanged {
      teammateId
      change
      teammate {
        ...TeammateRow
      }
    }
  }
`)

// How often the list's counts are re-read while the page is visible (there is no subscription for them).
const refreshInterval = 10_000

/**
 * The teammates, most recently active first, each with how much it remembers, how many suggestions
 * wait and when it last talked; a search across all memory; the form that adds a teammate.
 */
export function TeammatesPage() {
  const [{ data, error }, reexecute] = useQuery({ query: TeammatesQuery, requestPolicy: 'cache-and-network' })
  const [demoNoticeShown, dismissDemoNotice] = useDemoNotice()
  const [deletedNotice, setDeletedNotice] = useState(takeDeletedNotice)
  // Teammates added, renamed or deleted anywhere (another window, the API) show at once.
  useLiveSubscription(TeammatesChangedSubscription, {})
  const [field, input] = useTeammateName('')
  const [created, setCreated] = useState<string | null>(null)
  const [{ fetching, error: createError }, createTeammate] = useMutation(CreateTeammateMutation)
  const teammates = [...(data?.teammates ?? [])].sort(
    (a, b) => Date.parse(b.activity.lastActivityAt) - Date.parse(a.activity.lastActivityAt) || a.name.localeCompare(b.name),
  )
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === 'visible') reexecute({ requestPolicy: 'network-only' })
    }
    const t = setInterval(again, refreshInterval)
    document.addEventListener('visibilitychange', again)
    return () => {
      clearInterval(t)
      document.removeEventListener('visibilitychange', again)
    }
  }, [reexecute])
  const demoTeammates = teammates.filter((t) => isDemo(t.name))
  const aboutYouWaiting = useAboutYouWaiting()
  const teammatesWaiting = teammates.reduce((n, t) => n + t.activity.suggestions, 0)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setCreated(null)
    if (!field.ready()) return
    const result = await createTeammate({ input: { name: field.name.trim() } })
    if (result.data) {
      field.clear()
      setCreated(result.data.createTeammate.teammate.name)
    }
  }

  return (
    <div data-testid="teammates-page">
      <PageHeading title="Teammates" />
      <p className="lede">
        Each teammate keeps its own memory and also knows what is in <Link to={paths.settings('about-you')}>About you</Link>,
        which all of them share.
      </p>

      <WaitingSummary aboutYou={aboutYouWaiting} teammates={teammatesWaiting} />

      {deletedNotice && (
        <p className="message ok" role="status" data-testid="teammate-deleted-notice">
          {deletedNotice}{' '}
          <button type="button" className="link-button" onClick={() => setDeletedNotice(null)}>
            OK
          </button>
        </p>
      )}

      {demoTeammates.length > 0 && demoNoticeShown && (
        <div className="message info demo-notice" role="note" data-testid="demo-notice">
          <p>
            <strong>This is a demo.</strong> {demoTeammates.map((t) => t.name).join(' and ')}{' '}
            {demoTeammates.length === 1 ? 'is an example' : 'are examples'}, loaded when this server started with an
            empty database, so that every screen has something to show. Everything marked <DemoBadge /> is example data:
            change it, rename it or forget it as you like, or remove it all at once.
          </p>
          <RemoveDemo teammates={demoTeammates} />
          <DemoNoticeDismiss onDismiss={dismissDemoNotice} />
        </div>
      )}

      <form className="card inline-form add-teammate" onSubmit={submit} aria-label="Add a teammate" noValidate>
        <TeammateNameField label="New teammate" field={field} input={input} placeholder="Name, e.g. Research assistant" onEdit={() => setCreated(null)} testId="teammate-name">
          <button type="submit" className="button primary" disabled={fetching} data-testid="teammate-create">
            {fetching ? 'Adding…' : 'Add teammate'}
          </button>
        </TeammateNameField>
        {createError && !field.shownProblem && <ErrorMessage testId="teammate-create-error">{describeError(createError)}</ErrorMessage>}
        {created && (
          <p className="message ok" role="status">
            Added {created}.
          </p>
        )}
      </form>

      {error && <ErrorMessage>{describeError(error)}</ErrorMessage>}
      {teammates.length > 0 && <MemorySearch />}

      {teammates.length === 0 && !error ? (
        <p className="empty" data-testid="teammates-empty">
          No teammates yet. Add the first one above.
        </p>
      ) : (
        <ul className="teammate-list" data-testid="teammate-list">
          {teammates.map((t) => (
            <li key={t.id} className="teammate-row" data-testid="teammate-row" data-teammate-id={t.id} data-demo={isDemo(t.name)}>
              <Link to={paths.teammate(t.id)} className="teammate-link" data-testid="teammate-link">
                <span className="teammate-text">
                  <span className="teammate-name-line">
                    <span className="teammate-name">{t.name}</span>
                    {isDemo(t.name) && <DemoBadge />}
                    <MemorySwitchMarker useMemory={t.useMemory} saveMemory={t.saveMemory} />
                  </span>
                  <span className="teammate-stats small" data-testid="teammate-stats">
                    <span data-testid="teammate-memories">{plural(t.activity.memories, 'memory', 'memories')}</span>
                    {t.activity.suggestions > 0 && (
                      <span className="badge attention" data-testid="teammate-suggestions">
                        {plural(t.activity.suggestions, 'suggestion', 'suggestions')} waiting
                      </span>
                    )}
                    <span className="muted" data-testid="teammate-last-conversation">
                      {t.activity.lastConversationAt ? (
                        <>
                          last conversation{' '}
                          <time dateTime={t.activity.lastConversationAt} title={formatTime(t.activity.lastConversationAt)}>
                            {formatAgo(t.activity.lastConversationAt)}
                          </time>
                        </>
                      ) : (
                        <>no conversations yet · added {formatAgo(t.createdAt)}</>
                      )}
                    </span>
                  </span>
                </span>
                <span className="chevron" aria-hidden="true">
                  ›
                </span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}
