import { useState, type FormEvent, type KeyboardEvent } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLiveSubscription } from '../api/live.ts'
import { graphql } from '../gql'
import { ConversationsTab } from '../conversations/ConversationsTab.tsx'
import { LessonsSection } from '../lessons/LessonsSection.tsx'
import { MemoryPanel } from '../memory/MemoryPanel.tsx'
import { RecallPreview } from '../memory/RecallPreview.tsx'
import { TransferSection } from '../memory/TransferSection.tsx'
import { Link, paths, teammateTabs, type TeammateTab } from '../router.tsx'
import { SuggestionsPanel } from '../suggestions/SuggestionsPanel.tsx'
import { DemoBadge, DemoNoticeDismiss, isDemo, useDemoNotice } from '../ui/demo.tsx'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { useInPlaceForm } from '../ui/inPlaceForm.ts'
import { PageHeading } from '../ui/PageHeading.tsx'
import { TechnicalDetails } from '../ui/TechnicalDetails.tsx'
import type { MemoryKind } from '../gql/graphql.ts'
import { ConnectAgent, NewTeammateNextStep } from './ConnectAgent.tsx'
import { DeleteTeammate } from './DeleteTeammate.tsx'
import { MemorySwitch } from './MemorySwitch.tsx'
import { TeammateNameField, useTeammateName } from './TeammateNameField.tsx'
import { TeammatesChangedSubscription } from './TeammatesPage.tsx'

const TeammateQuery = graphql(`
  query Teammate($id: ID!) {
    teammate(id: $id) {
      id
      name
      createdAt
      generation
      useMemory
      saveMemory
    }
  }
`)

const RenameTeammateMutation = graphql(`
  mutation RenameTeammate($input: RenameTeammateInput!) {
    renameTeammate(input: $input) {
      teammate {
        id
        name
      }
    }
  }
`)

/**
 * The teammate's current generation once at subscription start, then every change (G7); its updater
 * (api/cache.ts) records it on the teammate, and has what the runs were given read again.
 */
const GenerationChangedSubscription = graphql(`
  subscription GenerationChanged($teammateId: ID!) {
    generationChanged(teammateId: $teammateId) {
      teammateId
      generation
    }
  }
`)

/** One teammate: its name, its generation (live) and its tabs. */
export function TeammatePage({ teammateId, tab, runId }: { teammateId: string; tab: TeammateTab; runId?: string }) {
  const [{ data, error, fetching }] = useQuery({ query: TeammateQuery, variables: { id: teammateId }, requestPolicy: 'cache-and-network' })
  const teammate = data?.teammate
  // Renamed, switched or deleted elsewhere (another window): the cache follows teammatesChanged, and a page
  // whose teammate is gone says so instead of failing on every action.
  useLiveSubscription(TeammatesChangedSubscription, {})
  const [shownName, setShownName] = useState<string | null>(null)
  if (teammate && teammate.name !== shownName) setShownName(teammate.name)

  if (!teammate && shownName !== null && data) {
    return (
      <div data-testid="teammate-deleted">
        <PageHeading title="Teammate deleted" />
        <p>{shownName} was deleted, with its memory and conversations.</p>
        <p>
          <Link to={paths.teammates()}>Back to teammates</Link>
        </p>
      </div>
    )
  }

  if (!teammate) {
    if (fetching) return <p className="muted">Loading…</p>
    return (
      <div data-testid="teammate-missing">
        <PageHeading title="Teammate not found" />
        <p>{error ? describeError(error) : 'There is no teammate with this id.'}</p>
        <p>
          <Link to={paths.teammates()}>Back to teammates</Link>
        </p>
      </div>
    )
  }
  return <TeammateView teammate={teammate} tab={tab} runId={runId} />
}

interface TeammateViewProps {
  teammate: { id: string; name: string; generation: string; useMemory: boolean; saveMemory: boolean }
  tab: TeammateTab
  runId?: string
}

function TeammateView({ teammate, tab, runId }: TeammateViewProps) {
  // Live from its first event, which the page waits for before it says it follows changes.
  const live = useLiveSubscription(GenerationChangedSubscription, { teammateId: teammate.id })
  const { open: renaming, show: openRename, close: closeRename, opener: renameButton } = useInPlaceForm()
  const demo = isDemo(teammate.name)
  const [demoNoticeShown, dismissDemoNotice] = useDemoNotice()
  return (
    <div data-testid="teammate-page" data-teammate-id={teammate.id}>
      <p className="breadcrumb">
        <Link to={paths.teammates()}>← Teammates</Link>
      </p>
      <div className="page-head">
        <PageHeading title={teammate.name} testId="teammate-title" />
        {demo && <DemoBadge />}
        {!renaming && (
          <button
            type="button"
            ref={renameButton}
            className="button small"
            onClick={openRename}
            aria-label={`Rename ${teammate.name}`}
            data-testid="teammate-rename"
          >
            Rename
          </button>
        )}
      </div>
      {renaming && <RenameForm teammate={teammate} onDone={closeRename} />}
      {demo && demoNoticeShown && (
        <div className="message info demo-notice" role="note" data-testid="demo-notice">
          <p>
            <strong>Demo teammate.</strong> {teammate.name} and what is marked <DemoBadge /> below are example data, loaded
            when this server started with an empty database. Change or forget them as you like.
          </p>
          <DemoNoticeDismiss onDismiss={dismissDemoNotice} />
        </div>
      )}

      <NewTeammateNextStep teammate={teammate} />
      <MemorySwitch teammate={teammate} />

      <nav className="tabs" aria-label={teammate.name}>
        {teammateTabs.map((t) => (
          <Link key={t.id} to={paths.teammate(teammate.id, t.id)} className="tab" aria-current={t.id === tab ? 'page' : undefined} data-testid={`tab-${t.id}`}>
            {t.label}
          </Link>
        ))}
      </nav>

      {tab === 'memory' && (
        <div className="stack">
          <SuggestionsPanel scope={{ teammateId: teammate.id }} audience={teammate.name} />
          <div>
            <MemoryPanel
              scope={{ teammateId: teammate.id }}
              heading={`${teammate.name}’s memory`}
              emptyHint="memory only this teammate keeps"
              kinds={listedKinds}
            />
            <p className="muted small aside-note">
              Lessons are listed below, under Lessons. {teammate.name} is also given what is in{' '}
              <Link to={paths.settings('about-you')}>About you</Link>.
            </p>
          </div>
          <LessonsSection teammateId={teammate.id} teammateName={teammate.name} />
          <RecallPreview teammateId={teammate.id} teammateName={teammate.name} />
          <TransferSection scope={{ teammateId: teammate.id }} whose={`${teammate.name}’s memory`} />
          <DeleteTeammate teammate={teammate} />
        </div>
      )}
      {tab === 'conversations' && (
        <ConversationsTab teammate={teammate} generation={teammate.generation} focusRunId={runId} />
      )}
      <ConnectAgent teammate={teammate} />
      <TeammateDetails teammate={teammate} live={live} />
    </div>
  )
}

/**
 * The form that renames a teammate, under its name. What is wrong with a name is said in plain words
 * before anything is sent (and the server's own answer, should it refuse, too). Escape or Cancel
 * closes it unchanged.
 */
function RenameForm({ teammate, onDone }: { teammate: { id: string; name: string }; onDone(): void }) {
  const [field, input] = useTeammateName(teammate.name)
  const { name, shownProblem } = field
  const [{ fetching, error }, renameTeammate] = useMutation(RenameTeammateMutation)

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    if (!field.ready()) return
    if (name.trim() === teammate.name) {
      onDone()
      return
    }
    const result = await renameTeammate({ input: { id: teammate.id, name: name.trim() } })
    if (result.data) onDone()
  }
  const escape = (e: KeyboardEvent) => {
    if (e.key === 'Escape' && !fetching) {
      e.preventDefault()
      onDone()
    }
  }

  return (
    <form className="card rename-form" onSubmit={submit} onKeyDown={escape} aria-label={`Rename ${teammate.name}`} noValidate data-testid="rename-form">
      <TeammateNameField label="New name" field={field} input={input} focusAtOnce testId="rename">
        <div className="inline">
          <button type="submit" className="button primary" disabled={fetching} data-testid="rename-save">
            {fetching ? 'Saving…' : 'Save name'}
          </button>
          <button type="button" className="button" onClick={onDone} disabled={fetching} data-testid="rename-cancel">
            Cancel
          </button>
        </div>
      </TeammateNameField>
      {error && !shownProblem && <ErrorMessage testId="rename-error">{describeError(error)}</ErrorMessage>}
    </form>
  )
}

/** The kinds the teammate's memory list shows: lessons have their own section (listed once). */
const listedKinds: MemoryKind[] = ['FACT', 'PREFERENCE', 'NOTE']

/**
 * Technical details, folded away: the teammate's id and its memory generation (G2), which changes
 * whenever memory the teammate sees changes and decides when a conversation starts a fresh thread.
 * live says the generation subscription delivered its first value: changes from then on show.
 */
function TeammateDetails({ teammate, live }: { teammate: { id: string; generation: string }; live: boolean }) {
  return (
    <TechnicalDetails testId="teammate-details">
      <dl className="details-list">
        <div>
          <dt>Id</dt>
          <dd>
            <code>{teammate.id}</code>
          </dd>
        </div>
        <div>
          <dt>Memory generation</dt>
          <dd>
            <span data-testid="teammate-generation" data-live={live} data-generation={teammate.generation}>
              generation <code>{teammate.generation}</code>
            </span>
            <p className="muted small">
              Shared, own and expired counts (shared:own:expired). It changes whenever memory this teammate sees changes; a
              conversation started before that continues in a fresh thread.
            </p>
          </dd>
        </div>
      </dl>
    </TechnicalDetails>
  )
}
