import { describe, expect, it } from 'vitest'
import { parseRoute, paths } from './router.tsx'

describe('parseRoute', () => {
  it('opens the teammate list at the root', () => {
    expect(parseRoute('/')).toEqual({ page: 'teammates' })
    expect(parseRoute('')).toEqual({ page: 'teammates' })
    expect(parseRoute('//')).toEqual({ page: 'teammates' })
  })

  it('tells a refused login link apart from a page that does not exist', () => {
    expect(parseRoute('/login', '?token=mu_wrong')).toEqual({ page: 'login-link-invalid' })
    expect(parseRoute('/login/')).toEqual({ page: 'login-link-invalid' })
    expect(parseRoute('/login/more')).toEqual({ page: 'not-found' })
  })

  it('opens a teammate on its Memory tab unless a tab is named', () => {
    expect(parseRoute('/teammates/t1')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'memory' })
    expect(parseRoute('/teammates/t1/memory')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'memory' })
    expect(parseRoute('/teammates/t1/conversations')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'conversations' })
    // Extra and trailing slashes don't matter.
    expect(parseRoute('/teammates/t1/')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'memory' })
    expect(parseRoute('//teammates//t1//conversations/')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'conversations' })
  })

  it('points at a reply with ?run= on the Conversations tab only', () => {
    expect(parseRoute('/teammates/t1/conversations', '?run=r9')).toEqual({
      page: 'teammate',
      teammateId: 't1',
      tab: 'conversations',
      runId: 'r9',
    })
    expect(parseRoute('/teammates/t1/conversations', '?run=')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'conversations' })
    expect(parseRoute('/teammates/t1/conversations', '?other=1')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'conversations' })
    expect(parseRoute('/teammates/t1', '?run=r9')).toEqual({ page: 'teammate', teammateId: 't1', tab: 'memory' })
  })

  it('opens settings on About you unless a section is named', () => {
    expect(parseRoute('/settings')).toEqual({ page: 'settings', section: 'about-you' })
    expect(parseRoute('/settings/about-you')).toEqual({ page: 'settings', section: 'about-you' })
    expect(parseRoute('/settings/ai')).toEqual({ page: 'settings', section: 'ai' })
    expect(parseRoute('/settings/backups')).toEqual({ page: 'settings', section: 'backups' })
  })

  it('is not-found for anything else', () => {
    for (const path of [
      '/teammates',
      '/teammates/t1/lessons',
      '/teammates/t1/Memory',
      '/teammates/t1/conversations/extra',
      '/settings/AI',
      '/settings/ai/extra',
      '/graphiql',
      '/teammate/t1',
      '/index.html',
    ]) {
      expect(parseRoute(path), path).toEqual({ page: 'not-found' })
    }
  })

  it('decodes percent-encoded parts, Unicode included', () => {
    expect(parseRoute('/teammates/a%2Fb')).toEqual({ page: 'teammate', teammateId: 'a/b', tab: 'memory' })
    expect(parseRoute('/teammates/Zo%C3%AB%20%F0%9F%A7%A0')).toEqual({ page: 'teammate', teammateId: 'Zoë 🧠', tab: 'memory' })
    expect(parseRoute('/settings/%61i')).toEqual({ page: 'settings', section: 'ai' })
  })

  it('is not-found for a malformed percent-encoding instead of failing', () => {
    expect(parseRoute('/teammates/%E0%A4%A')).toEqual({ page: 'not-found' })
    expect(parseRoute('/teammates/%')).toEqual({ page: 'not-found' })
    expect(parseRoute('/settings/%ZZ')).toEqual({ page: 'not-found' })
  })

  it('takes a long path', () => {
    const id = 'x'.repeat(10_000)
    expect(parseRoute(`/teammates/${id}`)).toEqual({ page: 'teammate', teammateId: id, tab: 'memory' })
    expect(parseRoute('/a'.repeat(5_000))).toEqual({ page: 'not-found' })
  })
})

describe('paths', () => {
  it('builds the URLs parseRoute reads back, for any id', () => {
    // Ids are UUIDs; the others check the encoding. (A browser would resolve an id of "..", which
    // encodeURIComponent keeps as it is, as a path step.)
    for (const id of ['00000000-0000-0000-0000-000000000001', 'a/b?c#d', 'Zoë 🧠', '%41', 'x'.repeat(500)]) {
      expect(parseRoute(paths.teammate(id))).toEqual({ page: 'teammate', teammateId: id, tab: 'memory' })
      expect(parseRoute(paths.teammate(id, 'conversations'))).toEqual({ page: 'teammate', teammateId: id, tab: 'conversations' })
      const url = new URL(paths.run(id, `run ${id}`), 'http://app.invalid')
      expect(parseRoute(url.pathname, url.search)).toEqual({
        page: 'teammate',
        teammateId: id,
        tab: 'conversations',
        runId: `run ${id}`,
      })
    }
    expect(paths.teammates()).toBe('/')
    expect(parseRoute(paths.settings())).toEqual({ page: 'settings', section: 'about-you' })
    expect(parseRoute(paths.settings('ai'))).toEqual({ page: 'settings', section: 'ai' })
  })
})
