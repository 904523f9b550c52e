import { useId } from 'react'
import { useMutation } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'

// The answer carries the teammate's settings, which the cache writes on the teammate (by id), so the
// page and the list follow; another window hears of it through teammatesChanged (SWITCHED).
const SetMemorySwitchMutation = graphql(`
  mutation SetMemorySwitch($input: SetMemorySwitchInput!) {
    setMemorySwitch(input: $input) {
      teammate {
        id
        useMemory
        saveMemory
      }
    }
  }
`)

export interface SwitchedTeammate {
  id: string
  name: string
  useMemory: boolean
  saveMemory: boolean
}

/**
 * The teammate's memory switch: "Use memory" and "Save to memory", each a labelled toggle with one
 * line that says what turning it off does. A change is sent at once; the toggles show the setting
 * the server holds, so a refused change leaves them as they were.
 */
export function MemorySwitch({ teammate }: { teammate: SwitchedTeammate }) {
  const [{ fetching, error }, setSwitch] = useMutation(SetMemorySwitchMutation)
  const change = (setting: 'useMemory' | 'saveMemory', on: boolean) =>
    void setSwitch({ input: { teammateId: teammate.id, [setting]: on } })
  return (
    <section className="card memory-switch" aria-label={`${teammate.name}’s memory switch`} data-testid="memory-switch">
      <Toggle
        label="Use memory"
        on={teammate.useMemory}
        busy={fetching}
        onChange={(on) => change('useMemory', on)}
        explain={
          teammate.useMemory
            ? `${teammate.name} is given what it remembers and can search it.`
            : `Off: ${teammate.name} is given no memory, not even pinned items, and is told memory is off.`
        }
        testId="switch-use-memory"
      />
      <Toggle
        label="Save to memory"
        on={teammate.saveMemory}
        busy={fetching}
        onChange={(on) => change('saveMemory', on)}
        explain={
          teammate.saveMemory
            ? `${teammate.name} saves what you ask it to remember; anything else waits for you as a suggestion.`
            : `Off: everything ${teammate.name} saves, changes or forgets waits for you as a suggestion, even when you asked for it.`
        }
        testId="switch-save-memory"
      />
      {error && <ErrorMessage testId="memory-switch-error">{describeError(error)}</ErrorMessage>}
    </section>
  )
}

interface ToggleProps {
  label: string
  on: boolean
  busy: boolean
  explain: string
  onChange(on: boolean): void
  testId: string
}

function Toggle({ label, on, busy, explain, onChange, testId }: ToggleProps) {
  const hint = useId()
  return (
    <div className="memory-switch-row">
      <label className="memory-switch-label">
        <input
          type="checkbox"
          role="switch"
          checked={on}
          disabled={busy}
          aria-describedby={hint}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={testId}
        />{' '}
        {label}
        <span className="muted small"> — {on ? 'on' : 'off'}</span>
      </label>
      <p id={hint} className="muted small memory-switch-hint" data-testid={`${testId}-hint`}>
        {explain}
      </p>
    </div>
  )
}

/** The list's markers for a teammate whose memory is off or not saving; nothing when both are on. */
export function MemorySwitchMarker({ useMemory, saveMemory }: { useMemory: boolean; saveMemory: boolean }) {
  return (
    <>
      {!useMemory && (
        <span className="badge warn" data-testid="teammate-memory-off" title="Use memory is off: it is given no memory">
          memory off
        </span>
      )}
      {!saveMemory && (
        <span className="badge warn" data-testid="teammate-not-saving" title="Save to memory is off: its saves wait for you">
          not saving
        </span>
      )}
    </>
  )
}
