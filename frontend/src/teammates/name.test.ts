import { describe, expect, it } from 'vitest'
import { teammateNameProblem } from './name.ts'

// The API's Limits.teammateNameLength today; the function takes whatever the API says.
const max = 120

const empty = 'Enter a name: it can’t be empty or only spaces.'

describe('teammateNameProblem', () => {
  it('takes an ordinary name', () => {
    expect(teammateNameProblem('Ada', max)).toBeNull()
    expect(teammateNameProblem('Research assistant (papers)', max)).toBeNull()
  })

  it('refuses an empty name, and one of spaces only, Unicode spaces included', () => {
    expect(teammateNameProblem('', max)).toBe(empty)
    expect(teammateNameProblem('   ', max)).toBe(empty)
    expect(teammateNameProblem(' \t\n ', max)).toBe(empty)
    expect(teammateNameProblem('\u00a0\u3000\u2003', max)).toBe(empty)
  })

  it('takes up to the limit it is given', () => {
    expect(teammateNameProblem('a'.repeat(5), 4)).toBe('The name is too long: 5 characters, and at most 4 fit.')
    expect(teammateNameProblem('a'.repeat(120), max)).toBeNull()
    expect(teammateNameProblem('a'.repeat(121), max)).toBe('The name is too long: 121 characters, and at most 120 fit.')
    expect(teammateNameProblem('a'.repeat(10_000), max)).toBe('The name is too long: 10000 characters, and at most 120 fit.')
  })

  it('counts what the name keeps once trimmed', () => {
    expect(teammateNameProblem(`   ${'a'.repeat(120)}   `, max)).toBeNull()
    expect(teammateNameProblem(`\n${'a'.repeat(121)}\n`, max)).toBe('The name is too long: 121 characters, and at most 120 fit.')
  })

  it('counts characters (code points) as the API does, not UTF-16 units', () => {
    // Each emoji is two UTF-16 units and one character to the API.
    expect('🧠'.repeat(120).length).toBe(240)
    expect(teammateNameProblem('🧠'.repeat(120), max)).toBeNull()
    expect(teammateNameProblem('🧠'.repeat(121), max)).toBe('The name is too long: 121 characters, and at most 120 fit.')
    expect(teammateNameProblem('名'.repeat(120), max)).toBeNull()
    // A letter and a combining accent are two characters, for the API as here.
    expect(teammateNameProblem('e\u0301'.repeat(60), max)).toBeNull()
    expect(teammateNameProblem('e\u0301'.repeat(61), max)).toBe('The name is too long: 122 characters, and at most 120 fit.')
  })
})
