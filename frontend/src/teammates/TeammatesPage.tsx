import { useId, useState, type FormEvent } from 'react'
import { useMutation, useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { CreateTeammateMutation, TeammatesQuery } from '../api/operations.ts'
import { formatTime } from '../memory/model.ts'
import { Link, paths } from '../router.tsx'
import { PageHeading } from '../ui/PageHeading.tsx'

/** Teammate names: 1–120 characters (the API's limit). */
const maxNameLength = 120

/** The teammates, oldest first, and the form that adds one. */
export function TeammatesPage() {
  const [{ data, error }, reexecute] = useQuery({ query: TeammatesQuery })
  const [name, setName] = useState('')
  const [created, setCreated] = useState<string | null>(null)
  const [{ fetching, error: createError }, createTeammate] = useMutation(CreateTeammateMutation)
  const id = useId()
  const teammates = data?.teammates ?? []

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const trimmed = name.trim()
    if (!trimmed) return
    const result = await createTeammate({ input: { name: trimmed } })
    if (result.data) {
      setName('')
      setCreated(result.data.createTeammate.teammate.name)
      reexecute({ requestPolicy: 'network-only' })
    }
  }

  return (
    <div data-testid="teammates-page">
      <PageHeading title="Teammates" />
      <p className="lede">
        Each teammate keeps its own memory and also knows what is in <Link to={paths.settings('about-you')}>About you</Link>,
        which all of them share.
      </p>

      <form className="card inline-form add-teammate" onSubmit={submit} aria-label="Add a teammate">
        <label htmlFor={id} className="field-label">
          New teammate
        </label>
        <div className="inline-form-row">
          <input
            id={id}
            type="text"
            placeholder="Name, e.g. Research assistant"
            maxLength={maxNameLength}
            value={name}
            onChange={(e) => setName(e.target.value)}
            data-testid="teammate-name-input"
          />
          <button type="submit" className="button primary" disabled={fetching || !name.trim()} data-testid="teammate-create">
            {fetching ? 'Adding…' : 'Add teammate'}
          </button>
        </div>
        {createError && (
          <p className="message error" role="alert" data-testid="teammate-create-error">
            {describeError(createError)}
          </p>
        )}
        {created && !createError && (
          <p className="message ok" role="status">
            Added {created}.
          </p>
        )}
      </form>

      {error && (
        <p className="message error" role="alert">
          {describeError(error)}
        </p>
      )}
      {teammates.length === 0 && !error ? (
        <p className="empty" data-testid="teammates-empty">
          No teammates yet. Add the first one above.
        </p>
      ) : (
        <ul className="teammate-list" data-testid="teammate-list">
          {teammates.map((t) => (
            <li key={t.id} className="teammate-row" data-testid="teammate-row" data-teammate-id={t.id}>
              <Link to={paths.teammate(t.id)} className="teammate-link" data-testid="teammate-link">
                <span className="teammate-text">
                  <span className="teammate-name">{t.name}</span>
                  <span className="muted small">since {formatTime(t.createdAt)}</span>
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
