// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { paths } from '../router.tsx'
import { memoryItem } from '../test/fixtures.ts'
import { fakeServer, renderWithApi } from '../test/fakeApi.tsx'
import { LessonsSection } from './LessonsSection.tsx'

function setup() {
  const server = fakeServer({
    Lessons: () => ({
      data: { lessons: [{ __typename: 'Lesson', item: memoryItem({ id: 'l1', kind: 'LESSON', pinned: true }), run: null }] },
    }),
  })
  renderWithApi(<LessonsSection teammateId="ada" teammateName="Ada" />, server)
}

describe('LessonsSection', () => {
  afterEach(() => history.replaceState(null, '', '/'))

  it('takes the focus once loaded when opened from "See lessons"', async () => {
    history.replaceState(null, '', paths.lessons('ada'))
    setup()
    const section = screen.getByRole('region', { name: 'Lessons' })
    expect(section.id).toBe('lessons')
    await waitFor(() => expect(section.getAttribute('data-state')).toBe('ready'))
    await waitFor(() => expect(document.activeElement).toBe(section))
  })

  it('leaves the focus alone on the plain Memory tab', async () => {
    history.replaceState(null, '', paths.teammate('ada'))
    setup()
    const section = screen.getByRole('region', { name: 'Lessons' })
    await waitFor(() => expect(section.getAttribute('data-state')).toBe('ready'))
    await screen.findByText('1 lesson')
    expect(document.activeElement).not.toBe(section)
  })
})
