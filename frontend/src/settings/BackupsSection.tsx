import { useQuery } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import { formatAgo, formatTime } from '../memory/model.ts'
import { ErrorMessage } from '../ui/ErrorMessage.tsx'
import { formatBytes, formatInterval } from './backupWords.ts'

const BackupsQuery = graphql(`
  query Backups {
    backups {
      enabled
      intervalSeconds
      keep
      count
      totalBytes
      last {
        name
        createdAt
        bytes
        migration
      }
    }
  }
`)

/** The sentence every restore keeps to (F8); the e2e test looks for it. */
export const reappliedSentence = 'Restoring a backup never brings back what you forgot after it was made: forgets are re-applied.'

/**
 * Settings → Backups (F8): the newest backup (when, how big), how many are kept, the schedule, and
 * that a restore applies later forgets again. With DATABASE_URL and no backup folder it says that
 * backups are the database operator's, and that those don't re-apply forgets.
 */
export function BackupsSection() {
  const [{ data, error, fetching }] = useQuery({ query: BackupsQuery, requestPolicy: 'network-only' })
  const status = data?.backups

  if (!status) {
    return (
      <div data-testid="backups-section" data-state="loading">
        {error ? <ErrorMessage>{describeError(error)}</ErrorMessage> : <p className="muted">{fetching ? 'Loading…' : ''}</p>}
      </div>
    )
  }

  if (!status.enabled) {
    return (
      <div className="backups-section" data-testid="backups-section" data-state="ready" data-enabled="false">
        <section className="card" data-testid="backups-operator" aria-labelledby="backups-operator-title">
          <h2 className="panel-title" id="backups-operator-title">
            Backups are up to the database’s operator
          </h2>
          <p>
            This service stores memory in a database server it does not run (<code>DATABASE_URL</code>) and has no backup
            folder, so it takes no backups itself: whoever runs that database server backs it up.
          </p>
          <p>
            Restoring one of those backups can bring back what you forgot after it was made. To have this service keep
            backups, and forget again after a restore what was forgotten since, set <code>MEMORY_BACKUP_DIR</code> (the
            docs/OPERATIONS.md explains it).
          </p>
        </section>
      </div>
    )
  }

  const last = status.last
  return (
    <div className="backups-section" data-testid="backups-section" data-state="ready" data-enabled="true">
      <p className="lede">
        A backup is a copy of all your memory — every teammate’s and yours — taken by the server. It holds the text of
        every memory as it was then, so it is kept as safely as the memory itself.
      </p>

      <section className="card" data-testid="backups-last" aria-labelledby="backups-last-title">
        <h2 className="panel-title" id="backups-last-title">
          Latest backup
        </h2>
        {last ? (
          <dl className="facts">
            <dt>Made</dt>
            <dd data-testid="backups-last-time">
              <time dateTime={last.createdAt}>
                {formatAgo(last.createdAt)} ({formatTime(last.createdAt)})
              </time>
            </dd>
            <dt>Size</dt>
            <dd data-testid="backups-last-size">{formatBytes(last.bytes)}</dd>
          </dl>
        ) : (
          <p data-testid="backups-none">No backup has been made yet.</p>
        )}
      </section>

      <section className="card" data-testid="backups-schedule" aria-labelledby="backups-schedule-title">
        <h2 className="panel-title" id="backups-schedule-title">
          Schedule and how many are kept
        </h2>
        <dl className="facts">
          <dt>Schedule</dt>
          <dd data-testid="backups-interval">
            {status.intervalSeconds ? (
              `A backup is made ${formatInterval(status.intervalSeconds)}.`
            ) : (
              <>
                No schedule: run <code>api backup</code> or set <code>MEMORY_BACKUP_INTERVAL</code>.
              </>
            )}
          </dd>
          <dt>Kept</dt>
          <dd data-testid="backups-keep">
            The newest {status.keep} {status.keep === 1 ? 'backup' : 'backups'}
            {status.intervalSeconds ? '; older ones are removed after each scheduled backup.' : '.'}
          </dd>
          <dt>Now</dt>
          <dd data-testid="backups-count">
            {status.count === 0
              ? 'None yet.'
              : `${status.count} ${status.count === 1 ? 'backup' : 'backups'}, ${formatBytes(status.totalBytes)} in all.`}
          </dd>
        </dl>
      </section>

      <section className="card" data-testid="backups-forgets" aria-labelledby="backups-forgets-title">
        <h2 className="panel-title" id="backups-forgets-title">
          Restoring and forgetting
        </h2>
        <p data-testid="backups-reapplied">{reappliedSentence}</p>
        <p className="muted small">
          Forgetting something doesn’t change backups made before: they still hold its text until they are removed.
        </p>
      </section>
    </div>
  )
}
