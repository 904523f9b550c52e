import { useContext, useSyncExternalStore } from 'react'
import { ApiContext } from '../api/context.ts'
import type { ConnectionState } from '../api/client.ts'

const never = () => () => {}

/**
 * The banner that says when the server can't be reached (stopped, restarting, or the network gone):
 * what is shown may be out of date and changes can't be saved until it is back. The app keeps trying
 * by itself, and says so for a moment when the connection is back (live lists re-read then).
 */
export function ConnectionBanner() {
  const api = useContext(ApiContext)
  const state: ConnectionState = useSyncExternalStore(api?.connection.subscribe ?? never, () => api?.connection.get() ?? 'online')
  return (
    <div className="connection-region" role="status" aria-live="polite">
      {state !== 'online' && (
        <div className={`connection-banner ${state}`} data-testid="connection-banner" data-state={state}>
          <div className="connection-inner">
            {state === 'down' ? (
              <>
                <strong>Can’t reach the server.</strong> Trying again… What you see may be out of date, and changes can’t be saved
                until the connection is back.
              </>
            ) : (
              <>
                <strong>Connected again.</strong>
              </>
            )}
          </div>
        </div>
      )}
    </div>
  )
}
