import { useId, useState } from 'react'
import { useMutation } from 'urql'
import { describeError } from '../api/errors.ts'
import { graphql } from '../gql'
import { ConfirmButtons, Dialog } from './Dialog.tsx'
import { ErasureFacts } from './ErasureFacts.tsx'
import { ErrorMessage } from './ErrorMessage.tsx'

const RemoveDemoMutation = graphql(`
  mutation RemoveDemo {
    removeDemo {
      teammates {
        teammateId
        forgottenItems
        deletedMessages
      }
      forgottenSharedItems
    }
  }
`)

/**
 * "Remove the demo": one click, then a confirmation that names what goes — the demo teammates with
 * everything they have, and the shared memories marked Demo — and what stays. Cancel has the focus.
 * The answer updates the cached list of teammates and shared memory (api/cache.ts), and other open
 * pages follow the live events the removal sends, so the notice disappears with the demo.
 */
export function RemoveDemo({ teammates }: { teammates: { id: string; name: string }[] }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" className="link-button demo-dismiss" onClick={() => setOpen(true)} data-testid="demo-remove">
        Remove the demo…
      </button>
      {open && <RemoveDemoDialog teammates={teammates} onClose={() => setOpen(false)} />}
    </>
  )
}

function RemoveDemoDialog({ teammates, onClose }: { teammates: { id: string; name: string }[]; onClose(): void }) {
  const titleId = useId()
  const [{ fetching, error }, removeDemo] = useMutation(RemoveDemoMutation)
  const remove = async () => {
    const result = await removeDemo({})
    if (result.data) onClose()
  }
  return (
    <Dialog title="Remove the demo?" titleId={titleId} onClose={onClose} testId="remove-demo-dialog">
      <ErasureFacts
        erased={
          <>
            {teammates.map((t) => (
              <li key={t.id}>{t.name}, with all its memories, lessons, suggestions and conversations.</li>
            ))}
            <li>Every memory in About you whose text is marked “(demo)”.</li>
          </>
        }
        kept={<li>Teammates and memories you added yourself — unless you marked them “(demo)” too.</li>}
        testId="remove-demo-explanation"
      />
      <p className="muted small">This can’t be undone.</p>
      {error && <ErrorMessage testId="remove-demo-error">{describeError(error)}</ErrorMessage>}
      <ConfirmButtons label="Remove the demo" busyLabel="Removing…" busy={fetching} onConfirm={() => void remove()} onCancel={onClose} testId="remove-demo" />
    </Dialog>
  )
}
