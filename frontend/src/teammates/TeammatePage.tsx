import { useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { useLiveSubscription } from '../api/live.ts'
import { GenerationChangedSubscription, RenameTeammateMutation, TeammateQuery, TeammatesChangedSubscription } from '../api/operations.ts'
import { ConversationsTab } from '../conversations/ConversationsTab.tsx'
import { LessonsSection } from '../lessons/LessonsSection.tsx'
import { MemoryPanel } from '../memory/MemoryPanel.tsx'
import { RecallPreview } from '../memory/RecallPreview.tsx'
import { TransferSection } from '../memory/TransferSection.tsx'
import { Link, paths, teammateTabs, type TeammateTab } from '../router.tsx'
import { SuggestionsPanel } from '../suggestions/SuggestionsPanel.tsx'
import { DemoBadge, DemoNoticeDismiss, isDemo, useDemoNotice } from '../ui/demo.tsx'
import { useInPlaceForm } from '../ui/inPlaceForm.ts'
import { PageHeading } from '../ui/PageHeading.tsx'
import type { MemoryKind } from '../gql/graphql.ts'
import { DeleteTeammate } from './DeleteTeammate.tsx'
import { teammateNameProblem } from './name.ts'

/** One teammate: its name, its generation (live) and its tabs. */
export function TeammatePage({ teammateId, tab, runId }: { teammateId: string; tab: TeammateTab; runId?: string }) {
  const [{ data, error, fetching }] = useQuery({ query: TeammateQuery, variables: { id: teammateId } })
  const teammate = data?.teammate
  // Deleted elsewhere (another window): the page says so instead of failing on every action.
  const [deleted, setDeleted] = useState(false)
  useLiveSubscription(
    TeammatesChangedSubscription,
    {},
    {
      onData(d) {
        if (d.teammatesChanged.teammateId === teammateId && d.teammatesChanged.change === 'DELETED') setDeleted(true)
      },
    },
  )

  if (deleted) {
    return (
      <div data-testid="teammate-deleted">
        <PageHeading title="Teammate deleted" />
        <p>{teammate ? `${teammate.name} was` : 'This teammate was'} deleted, with its memory and conversations.</p>
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
  teammate: { id: string; name: string; generation: string }
  tab: TeammateTab
  runId?: string
}

function TeammateView({ teammate, tab, runId }: TeammateViewProps) {
  const generation = useGeneration(teammate.id)
  const { open: renaming, show: openRename, close: closeRename, opener: renameButton } = useInPlaceForm()
  const demo = isDemo(teammate.name)
  const [demoNoticeShown, dismissDemoNotice] = useDemoNotice()
  const [imports, setImports] = useState(0)
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
              changeSignal={generation.changes + imports}
              kinds={listedKinds}
            />
            <p className="muted small aside-note">
              Lessons are listed below, under Lessons. {teammate.name} is also given your shared memory, in{' '}
              <Link to={paths.settings('about-you')}>About you</Link>.
            </p>
          </div>
          <LessonsSection teammateId={teammate.id} teammateName={teammate.name} changeSignal={generation.changes} />
          <RecallPreview teammateId={teammate.id} teammateName={teammate.name} />
          <TransferSection scope={{ teammateId: teammate.id }} whose={`${teammate.name}’s memory`} onImported={() => setImports((n) => n + 1)} />
          <DeleteTeammate teammate={teammate} />
        </div>
      )}
      {tab === 'conversations' && (
        <ConversationsTab teammate={teammate} generation={generation.value} changeSignal={generation.changes} focusRunId={runId} />
      )}
      <TeammateDetails teammate={teammate} generation={generation} />
    </div>
  )
}

/**
 * The form that renames a teammate, under its name. What is wrong with a name is said in plain words
 * before anything is sent (and the server's own answer, should it refuse, too). Escape or Cancel
 * closes it unchanged.
 */
function RenameForm({ teammate, onDone }: { teammate: { id: string; name: string }; onDone(): void }) {
  const [name, setName] = useState(teammate.name)
  const [tried, setTried] = useState(false)
  const [{ fetching, error }, renameTeammate] = useMutation(RenameTeammateMutation)
  const input = useRef<HTMLInputElement>(null)
  const id = useId()
  const problem = teammateNameProblem(name)
  const shownProblem = problem && (tried || name.trim() !== '') ? problem : null

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    setTried(true)
    if (problem) {
      input.current?.focus()
      return
    }
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
      <label htmlFor={id} className="field-label">
        New name
      </label>
      <div className="inline-form-row">
        <input
          id={id}
          ref={input}
          type="text"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onFocus={(e) => e.target.select()}
          autoFocus
          aria-invalid={shownProblem ? true : undefined}
          aria-describedby={shownProblem ? `${id}-problem` : undefined}
          data-testid="rename-input"
        />
        <div className="inline">
          <button type="submit" className="button primary" disabled={fetching} data-testid="rename-save">
            {fetching ? 'Saving…' : 'Save name'}
          </button>
          <button type="button" className="button" onClick={onDone} disabled={fetching} data-testid="rename-cancel">
            Cancel
          </button>
        </div>
      </div>
      {shownProblem && (
        <p className="message error" id={`${id}-problem`} role="alert" data-testid="rename-problem">
          {shownProblem}
        </p>
      )}
      {error && !shownProblem && (
        <p className="message error" role="alert" data-testid="rename-error">
          {describeError(error)}
        </p>
      )}
    </form>
  )
}

/** The kinds the teammate's memory list shows: lessons have their own section (listed once). */
const listedKinds: MemoryKind[] = ['FACT', 'PREFERENCE', 'NOTE']

/**
 * Technical details, folded away: the teammate's id and its memory generation (G2), which changes
 * whenever memory the teammate sees changes and decides when a conversation starts a fresh thread.
 */
function TeammateDetails({ teammate, generation }: { teammate: { id: string; generation: string }; generation: Generation }) {
  return (
    <details className="details-panel" data-testid="teammate-details">
      <summary>Technical details</summary>
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
            <span data-testid="teammate-generation" data-live={generation.live} data-generation={generation.value ?? teammate.generation}>
              generation <code>{generation.value ?? teammate.generation}</code>
            </span>
            <p className="muted small">
              Shared, own and expired counts (shared:own:expired). It changes whenever memory this teammate sees changes; a
              conversation started before that continues in a fresh thread.
            </p>
          </dd>
        </div>
      </dl>
    </details>
  )
}

interface Generation {
  /** The current generation, once the subscription delivered it. */
  value: string | null
  /** The subscription delivered its first value: changes from now on are seen. */
  live: boolean
  /** How many times the generation changed while the page was open. */
  changes: number
}

/**
 * useGeneration follows generationChanged for the teammate (G7). The subscription sends the current
 * value first, then every change, including after a reconnection. Conversations compare it with each
 * thread's own generation to say when the next message starts a fresh thread.
 */
function useGeneration(teammateId: string): Generation {
  const [value, setValue] = useState<string | null>(null)
  const [changes, setChanges] = useState(0)
  const last = useRef<string | null>(null)

  useLiveSubscription(
    GenerationChangedSubscription,
    { teammateId },
    {
      onData(data) {
        const g = data.generationChanged.generation
        if (last.current !== null && last.current !== g) setChanges((c) => c + 1)
        last.current = g
        setValue(g)
      },
    },
  )

  return { value, live: value !== null, changes }
}
