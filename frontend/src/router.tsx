import { useEffect, useState, type AnchorHTMLAttributes, type MouseEvent } from 'react'

/**
 * The web app's screens and their URLs. The Go server answers every extension-less path with
 * index.html (frontend/embed.go), so each of these can be opened, reloaded and bookmarked.
 *
 *   /                              teammates
 *   /teammates/:id                 a teammate (its Memory tab; #lessons scrolls to Lessons)
 *   /teammates/:id/:tab            a teammate's tab: "memory" or "conversations"
 *                                  (?run=<id> on conversations points at one reply)
 *   /settings                      settings (its About you section)
 *   /settings/:section             a settings section: "about-you", "ai" or "backups"
 *   /login                         a login link the server refused (its token is wrong), opened in a
 *                                  browser that is signed in already: the server answers it with the app
 */
export type Route =
  | { page: 'teammates' }
  | { page: 'teammate'; teammateId: string; tab: TeammateTab; runId?: string }
  | { page: 'settings'; section: SettingsSection }
  | { page: 'login-link-invalid' }
  | { page: 'not-found' }

/** The tabs of a teammate. Suggestions and lessons are sections of the Memory tab. */
export const teammateTabs = [
  { id: 'memory', label: 'Memory' },
  { id: 'conversations', label: 'Conversations' },
] as const
export type TeammateTab = (typeof teammateTabs)[number]['id']

/** The sections of settings. */
export const settingsSections = [
  { id: 'about-you', label: 'About you' },
  { id: 'ai', label: 'AI' },
  { id: 'backups', label: 'Backups' },
] as const
export type SettingsSection = (typeof settingsSections)[number]['id']

/** The screen a URL shows; a URL that names none (or can't be decoded) is not-found. */
export function parseRoute(pathname: string, search = ''): Route {
  let parts: string[]
  try {
    parts = pathname.split('/').filter(Boolean).map(decodeURIComponent)
  } catch {
    // A malformed percent-encoding (URIError): a link typed or cut wrong.
    return { page: 'not-found' }
  }
  if (parts.length === 0) return { page: 'teammates' }
  if (parts.length === 1 && parts[0] === 'login') return { page: 'login-link-invalid' }
  if (parts[0] === 'teammates' && (parts.length === 2 || parts.length === 3)) {
    const tab = teammateTabs.find((t) => t.id === (parts[2] ?? 'memory'))
    if (!tab) return { page: 'not-found' }
    const runId = tab.id === 'conversations' ? new URLSearchParams(search).get('run') || undefined : undefined
    return { page: 'teammate', teammateId: parts[1], tab: tab.id, runId }
  }
  if (parts[0] === 'settings' && parts.length <= 2) {
    const section = settingsSections.find((s) => s.id === (parts[1] ?? 'about-you'))
    return section ? { page: 'settings', section: section.id } : { page: 'not-found' }
  }
  return { page: 'not-found' }
}

/** The fragment of a teammate's URL that opens its Memory tab at Lessons. */
export const lessonsAnchor = 'lessons'

export const paths = {
  teammates: () => '/',
  teammate: (id: string, tab: TeammateTab = 'memory') =>
    tab === 'memory' ? `/teammates/${encodeURIComponent(id)}` : `/teammates/${encodeURIComponent(id)}/${tab}`,
  /** A teammate's Memory tab, scrolled to its Lessons section (which takes the focus). */
  lessons: (id: string) => `/teammates/${encodeURIComponent(id)}#${lessonsAnchor}`,
  /** A teammate's Conversations tab, scrolled to one run's reply. */
  run: (teammateId: string, runId: string) =>
    `/teammates/${encodeURIComponent(teammateId)}/conversations?run=${encodeURIComponent(runId)}`,
  settings: (section: SettingsSection = 'about-you') => `/settings/${section}`,
}

const navigationEvent = 'memory:navigate'

export function navigate(to: string) {
  if (to === location.pathname + location.search + location.hash) return
  history.pushState(null, '', to)
  window.dispatchEvent(new Event(navigationEvent))
}

/** The current route; re-renders on navigation and on the browser's back and forward buttons. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.pathname, location.search))
  useEffect(() => {
    const update = () => setRoute(parseRoute(location.pathname, location.search))
    window.addEventListener('popstate', update)
    window.addEventListener(navigationEvent, update)
    return () => {
      window.removeEventListener('popstate', update)
      window.removeEventListener(navigationEvent, update)
    }
  }, [])
  return route
}

/** An ordinary link that navigates inside the app without reloading it. */
export function Link({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const handle = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e)
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
    e.preventDefault()
    navigate(to)
  }
  return <a href={to} onClick={handle} {...rest} />
}
