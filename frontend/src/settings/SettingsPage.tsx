import { MemoryPanel } from '../memory/MemoryPanel.tsx'
import { TransferSection } from '../memory/TransferSection.tsx'
import { Link, paths, settingsSections, type SettingsSection } from '../router.tsx'
import { SuggestionsPanel } from '../suggestions/SuggestionsPanel.tsx'
import { PageHeading } from '../ui/PageHeading.tsx'
import { useAboutYouWaiting, WaitingBadge } from './AboutYouWaiting.tsx'
import { AISection } from './AISection.tsx'
import { BackupsSection } from './BackupsSection.tsx'

/** Settings, one section at a time. */
export function SettingsPage({ section }: { section: SettingsSection }) {
  const aboutYouWaiting = useAboutYouWaiting()
  return (
    <div data-testid="settings-page">
      <PageHeading title="Settings" />
      <nav className="tabs" aria-label="Settings">
        {settingsSections.map((s) => (
          <Link key={s.id} to={paths.settings(s.id)} className="tab" aria-current={s.id === section ? 'page' : undefined} data-testid={`settings-${s.id}`}>
            {s.label}
            {s.id === 'about-you' && <WaitingBadge count={aboutYouWaiting} testId="settings-about-you-waiting" />}
          </Link>
        ))}
      </nav>
      {section === 'about-you' && <AboutYou />}
      {section === 'ai' && <AISection />}
      {section === 'backups' && <BackupsSection />}
    </div>
  )
}

/** The shared scope: what every teammate knows about the user, and suggestions for it. */
function AboutYou() {
  return (
    <div data-testid="about-you-page">
      <p className="lede">
        What every teammate knows about you: facts, preferences and notes shared with all of them. Memory that
        belongs to one teammate only is on that <Link to={paths.teammates()}>teammate’s page</Link>.
      </p>
      <div className="stack">
        <SuggestionsPanel scope={{ teammateId: null }} audience="any teammate" />
        <MemoryPanel scope={{ teammateId: null }} heading="About you" emptyHint="fact or preference about you" />
        <TransferSection scope={{ teammateId: null }} whose="About you" />
      </div>
    </div>
  )
}
