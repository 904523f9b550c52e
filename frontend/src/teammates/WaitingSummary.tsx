import { Link, paths } from '../router.tsx'
import { waitingWords } from '../settings/AboutYouWaiting.tsx'

/**
 * WaitingSummary is the one line of the home page that says how many suggestions wait for the user
 * in all: those for About you (shared with every teammate) and those of each teammate, whose rows
 * below show their own. Nothing when none waits.
 */
export function WaitingSummary({ aboutYou, teammates }: { aboutYou: number; teammates: number }) {
  const total = aboutYou + teammates
  if (total <= 0) return null
  return (
    <p className="message info waiting-summary" role="status" data-testid="waiting-summary" data-total={total}>
      <strong>{waitingWords(total)}</strong> for you to confirm or dismiss
      {aboutYou > 0 && (
        <>
          {': '}
          <Link to={paths.settings('about-you')} data-testid="waiting-summary-about-you">
            {aboutYou} in About you
          </Link>
        </>
      )}
      {teammates > 0 && <>{aboutYou > 0 ? ', ' : ': '}{teammates} with your teammates below</>}.
    </p>
  )
}
