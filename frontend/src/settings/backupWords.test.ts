import { describe, expect, it } from 'vitest'
import { formatBytes, formatInterval } from './backupWords.ts'

describe('formatBytes', () => {
  it('says small sizes in bytes', () => {
    expect(formatBytes(0)).toBe('0 bytes')
    expect(formatBytes(1)).toBe('1 byte')
    expect(formatBytes(999)).toBe('999 bytes')
  })

  it('uses one decimal below ten and none above, in decimal units', () => {
    expect(formatBytes(1000)).toBe('1.0 kB')
    expect(formatBytes(4_200_000)).toBe('4.2 MB')
    expect(formatBytes(42_000_000)).toBe('42 MB')
    expect(formatBytes(999_999)).toBe('1.0 MB')
    expect(formatBytes(3_500_000_000)).toBe('3.5 GB')
  })

  it('says a dash for what is not a size', () => {
    expect(formatBytes(-1)).toBe('—')
    expect(formatBytes(Number.NaN)).toBe('—')
  })
})

describe('formatInterval', () => {
  it('says the largest whole unit', () => {
    expect(formatInterval(86400)).toBe('every 24 hours')
    expect(formatInterval(3600)).toBe('every hour')
    expect(formatInterval(7 * 86400)).toBe('every 7 days')
    expect(formatInterval(1800)).toBe('every 30 minutes')
    expect(formatInterval(60)).toBe('every minute')
    expect(formatInterval(90)).toBe('every 90 seconds')
  })
})
