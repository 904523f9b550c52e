import { useQuery } from 'urql'
import { graphql } from '../gql'

const BackupsEnabledQuery = graphql(`
  query BackupsEnabled {
    backups {
      enabled
    }
  }
`)

interface BackupsKeptProps {
  /** What restoring an older backup does again, after "restoring one": "forgets this again". */
  again: string
}

/**
 * The "Not erased" line about backups in a forget's or a delete's confirmation (F8). Backups made
 * before still hold the text; when the service keeps backups (a backup directory), the forget
 * ledger beside them makes a restore apply this again. Without one, the database's backups are its
 * operator's and nothing re-applies it, so the line says only that they keep it.
 */
export function BackupsKept({ again }: BackupsKeptProps) {
  const [{ data }] = useQuery({ query: BackupsEnabledQuery })
  const operators = data?.backups.enabled === false
  return (
    <li data-testid="backups-kept">
      {operators ? 'Backups of the database, which its operator keeps.' : `Backups made before now — restoring one ${again}.`}
    </li>
  )
}
