// @vitest-environment happy-dom
import { screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it } from 'vitest'
import { fakeServer, renderWithApi } from '../test/fakeApi.tsx'
import { leftOutLines, RecallPreview } from './RecallPreview.tsx'

const none = { __typename: 'RecallLeftOut' as const, noSharedWord: 0, overBudget: 0, expired: 0, waiting: 0 }

describe('leftOutLines', () => {
  it('says nothing when nothing was left out', () => {
    expect(leftOutLines(none)).toEqual([])
  })

  it('explains each reason, in the singular and the plural', () => {
    expect(leftOutLines({ ...none, noSharedWord: 9, overBudget: 1, expired: 2, waiting: 1 })).toEqual([
      '9 memories share no word with this request, so they were left out — pin one to always give it.',
      '1 memory matched but didn’t fit: a teammate is given at most 12 memories and 6,000 characters, pinned ones first.',
      '2 memories have expired and are no longer given.',
      '1 suggestion waits for you: a suggestion is given only once you confirm it.',
    ])
    expect(leftOutLines({ ...none, noSharedWord: 1, expired: 1, waiting: 3 })).toEqual([
      '1 memory shares no word with this request, so it was left out — pin one to always give it.',
      '1 memory has expired and is no longer given.',
      '3 suggestions wait for you: a suggestion is given only once you confirm it.',
    ])
  })
})

describe('RecallPreview, what it left out', () => {
  it('shows under the result why memories were not given', async () => {
    const server = fakeServer({
      RecallPreview: () => ({
        data: {
          recallPreview: {
            __typename: 'RecallPreview',
            vectorSearch: 'NOT_CONFIGURED',
            vectorReason: null,
            memoryOff: false,
            leftOut: { ...none, noSharedWord: 9 },
            entries: [],
          },
        },
      }),
    })
    renderWithApi(<RecallPreview teammateId="ada" teammateName="Ada" />, server)
    const user = userEvent.setup({ delay: null })
    await user.type(screen.getByTestId('recall-query'), "Give me a summary of this week's news")
    await user.click(screen.getByTestId('recall-submit'))
    const lines = await screen.findAllByTestId('recall-left-out-line')
    expect(lines.map((l) => l.textContent)).toEqual(['9 memories share no word with this request, so they were left out — pin one to always give it.'])
    expect(screen.getByTestId('recall-empty')).toBeTruthy()
  })
})
