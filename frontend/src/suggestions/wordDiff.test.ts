import { describe, expect, it } from 'vitest'
import { wordDiff, type DiffPart } from './wordDiff.ts'

/** The text a side of the diff reads: what both share plus what only that side has. */
function side(parts: DiffPart[], kind: 'removed' | 'added'): string {
  return parts.filter((p) => p.kind === 'same' || p.kind === kind).map((p) => p.text).join('')
}

/** Fails unless the diff puts both texts back together, runs merged and none empty. */
function expectFaithful(before: string, after: string): DiffPart[] {
  const parts = wordDiff(before, after)
  expect(side(parts, 'removed')).toBe(before)
  expect(side(parts, 'added')).toBe(after)
  for (const [i, p] of parts.entries()) {
    expect(p.text).not.toBe('')
    if (i > 0) expect(p.kind).not.toBe(parts[i - 1].kind)
  }
  return parts
}

describe('wordDiff', () => {
  it('has nothing to show for two empty texts', () => {
    expect(wordDiff('', '')).toEqual([])
  })

  it('shows a text added to or removed from nothing as one run', () => {
    expect(wordDiff('', 'Likes green tea')).toEqual([{ kind: 'added', text: 'Likes green tea' }])
    expect(wordDiff('Likes green tea', '')).toEqual([{ kind: 'removed', text: 'Likes green tea' }])
  })

  it('keeps an unchanged text as one run', () => {
    expect(wordDiff('Likes green tea.', 'Likes green tea.')).toEqual([{ kind: 'same', text: 'Likes green tea.' }])
  })

  it('replaces a word, the removed text before the added', () => {
    expect(wordDiff('Likes green tea', 'Likes black tea')).toEqual([
      { kind: 'same', text: 'Likes ' },
      { kind: 'removed', text: 'green' },
      { kind: 'added', text: 'black' },
      { kind: 'same', text: ' tea' },
    ])
  })

  it('compares whole words: a changed letter changes the word', () => {
    expect(wordDiff('meeting at 10:00', 'meeting at 10:30')).toEqual([
      { kind: 'same', text: 'meeting at ' },
      { kind: 'removed', text: '10:00' },
      { kind: 'added', text: '10:30' },
    ])
  })

  it('joins a lone space between two changes to the changes', () => {
    expect(wordDiff('old words here', 'new text here')).toEqual([
      { kind: 'removed', text: 'old words' },
      { kind: 'added', text: 'new text' },
      { kind: 'same', text: ' here' },
    ])
  })

  it('keeps words inserted in the middle and at the ends apart from what stays', () => {
    expect(wordDiff('tea in the morning', 'green tea early in the morning, always')).toEqual([
      { kind: 'added', text: 'green ' },
      { kind: 'same', text: 'tea ' },
      { kind: 'added', text: 'early ' },
      { kind: 'same', text: 'in the ' },
      { kind: 'removed', text: 'morning' },
      { kind: 'added', text: 'morning, always' },
    ])
  })

  it('treats a change of whitespace as a change, keeping every character', () => {
    const parts = expectFaithful('one two', 'one\n\ttwo')
    expect(parts).toEqual([
      { kind: 'same', text: 'one' },
      { kind: 'removed', text: ' ' },
      { kind: 'added', text: '\n\t' },
      { kind: 'same', text: 'two' },
    ])
    expectFaithful('  leading and trailing  ', 'leading and trailing')
  })

  it('handles words outside ASCII: emoji, accents, right-to-left and CJK text', () => {
    expect(wordDiff('Loves 🍵 and café', 'Loves ☕ and café')).toEqual([
      { kind: 'same', text: 'Loves ' },
      { kind: 'removed', text: '🍵' },
      { kind: 'added', text: '☕' },
      { kind: 'same', text: ' and café' },
    ])
    expectFaithful('שלום עולם', 'שלום לכולם')
    // Text with no spaces between its words is a single word to this diff.
    expect(wordDiff('我喜欢绿茶', '我喜欢红茶')).toEqual([
      { kind: 'removed', text: '我喜欢绿茶' },
      { kind: 'added', text: '我喜欢红茶' },
    ])
    // Unicode spaces separate words too (here the ideographic space and a no-break space).
    expect(wordDiff('東京\u3000大阪', '東京\u3000京都')).toEqual([
      { kind: 'same', text: '東京\u3000' },
      { kind: 'removed', text: '大阪' },
      { kind: 'added', text: '京都' },
    ])
    expect(wordDiff('10\u00a0kg', '12\u00a0kg')[0]).toEqual({ kind: 'removed', text: '10' })
  })

  it('does not split a character: a decomposed é is another word than a composed one', () => {
    expect(wordDiff('caf\u00e9 au lait', 'cafe\u0301 au lait')).toEqual([
      { kind: 'removed', text: 'caf\u00e9' },
      { kind: 'added', text: 'cafe\u0301' },
      { kind: 'same', text: ' au lait' },
    ])
  })

  it('puts both texts back together for many kinds of change', () => {
    const texts = [
      '',
      ' ',
      'a',
      'a b',
      'b a',
      'a a a',
      'The user prefers metric units and writes in British English.',
      'The user prefers imperial units, writes in British English, and likes short answers.',
      'Pinned: always answer in German.\nUnless asked otherwise.',
      '🧠 memory   with  odd   spacing 🧠',
    ]
    for (const before of texts) {
      for (const after of texts) expectFaithful(before, after)
    }
  })

  it('shows a small change in a long text as that change only', () => {
    // 4,000 characters, the longest memory text: 2,000 one-letter words and the spaces between them.
    const words = Array.from({ length: 2000 }, (_, i) => String.fromCharCode(97 + (i % 26)))
    const before = words.join(' ')
    expect(before.length).toBeLessThanOrEqual(4000)
    expect(wordDiff(before, before)).toEqual([{ kind: 'same', text: before }])

    const changed = [...words]
    changed[1000] = 'Z'
    const parts = expectFaithful(before, changed.join(' '))
    expect(parts.map((p) => p.kind)).toEqual(['same', 'removed', 'added', 'same'])
    expect(parts[1].text).toBe(words[1000])
    expect(parts[2].text).toBe('Z')
  })

  it('falls back to all removed, all added when a long text is rewritten, but keeps its shared ends', () => {
    const before = 'Start. ' + Array.from({ length: 1000 }, (_, i) => `old${i}`).join(' ') + ' End.'
    const after = 'Start. ' + Array.from({ length: 1000 }, (_, i) => `new${i}`).join(' ') + ' End.'
    const parts = expectFaithful(before, after)
    expect(parts.map((p) => p.kind)).toEqual(['same', 'removed', 'added', 'same'])
    expect(parts[0].text).toBe('Start. ')
    expect(parts[3].text).toBe(' End.')
  })
})
