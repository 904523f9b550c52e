import { useCallback, useRef, useState } from 'react'
import { useClient } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import type { ScopeInput } from '../gql/graphql.ts'

// The tombstone check before saving a text again (F3).
const ForgottenBeforeQuery = graphql(`
  query ForgottenBefore($scope: ScopeInput!, $content: String!) {
    forgottenBefore(scope: $scope, content: $content)
  }
`)

export interface ForgottenGuard {
  /** The text the warning is shown for; null while there is none. */
  warnedText: string | null
  checking: boolean
  /**
   * Decides whether text may be saved now: yes when it was never forgotten in the scope, or when
   * the user confirmed the warning for exactly this text; otherwise the warning shows. confirmed
   * is true for the warning's own "Save it again" button, and only then. When the check itself
   * fails, fail is told why, in words, and the answer is no.
   */
  allows(text: string, confirmed: boolean, fail: (message: string) => void): Promise<boolean>
  /** The user changed the text or went back: the warning goes away. */
  reset(): void
}

/**
 * useForgottenGuard puts F3's warning in front of an explicit save: a text the user asked to forget
 * before in the same scope is not saved again until the user confirms a second time. The server
 * allows the save either way; the warning is for accidents (pasting an old note back, say).
 */
export function useForgottenGuard(scope: ScopeInput): ForgottenGuard {
  const client = useClient()
  const [warnedText, setWarnedText] = useState<string | null>(null)
  const warned = useRef<string | null>(null)
  const confirmedText = useRef<string | null>(null)
  const [checking, setChecking] = useState(false)
  const teammateId = scope.teammateId ?? null

  const allows = useCallback(
    async (text: string, confirmed: boolean, fail: (message: string) => void): Promise<boolean> => {
      if (confirmedText.current === text) return true
      if (warned.current === text) {
        if (!confirmed) return false // Enter in a field doesn't answer the warning
        confirmedText.current = text
        warned.current = null
        setWarnedText(null)
        return true
      }
      setChecking(true)
      const result = await client
        .query(ForgottenBeforeQuery, { scope: { teammateId }, content: text }, { requestPolicy: 'network-only' })
        .toPromise()
      setChecking(false)
      if (!result.data) {
        fail(describeError(result.error))
        return false
      }
      if (result.data.forgottenBefore) {
        warned.current = text
        setWarnedText(text)
        return false
      }
      return true
    },
    [client, teammateId],
  )

  const reset = useCallback(() => {
    warned.current = null
    setWarnedText(null)
  }, [])
  return { warnedText, checking, allows, reset }
}

/**
 * The warning itself, with the second confirmation. It sits where the form's own buttons were, so
 * the user answers it before anything else.
 */
export function ForgottenWarning({ busy, onConfirm, onCancel }: { busy: boolean; onConfirm(): void; onCancel(): void }) {
  return (
    <div className="message warn forgotten-warning" role="alert" data-testid="forgotten-warning">
      <p>
        <strong>You asked to forget this before. Save it again?</strong>
      </p>
      <p className="small">
        Saving makes it memory again: teammates will be given it. Nothing of the old copy comes back; this is a new
        save of the same text.
      </p>
      <div className="actions compact">
        <button type="button" className="button primary" onClick={onConfirm} disabled={busy} data-testid="forgotten-confirm">
          {busy ? 'Saving…' : 'Save it again'}
        </button>
        <button type="button" className="button" onClick={onCancel} disabled={busy} data-testid="forgotten-cancel">
          Don’t save
        </button>
      </div>
    </div>
  )
}
