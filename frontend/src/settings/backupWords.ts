/** A size in bytes in the units people read (decimal, like file managers): "812 bytes", "4.2 MB". */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 0) return '—'
  if (bytes < 1000) return bytes === 1 ? '1 byte' : `${Math.round(bytes)} bytes`
  const units = ['kB', 'MB', 'GB', 'TB', 'PB']
  let value = bytes / 1000
  let unit = 0
  while (value >= 999.5 && unit < units.length - 1) {
    value /= 1000
    unit++
  }
  const shown = value < 9.95 ? value.toFixed(1) : String(Math.round(value))
  return `${shown} ${units[unit]}`
}

/** A schedule's interval, in seconds, in words: "every 24 hours", "every 30 minutes", "every 7 days". */
export function formatInterval(seconds: number): string {
  const count = (n: number, one: string, many: string) => (n === 1 ? `every ${one}` : `every ${n} ${many}`)
  if (seconds >= 2 * 86400 && seconds % 86400 === 0) return count(seconds / 86400, 'day', 'days')
  if (seconds % 3600 === 0) return count(seconds / 3600, 'hour', 'hours')
  if (seconds % 60 === 0) return count(seconds / 60, 'minute', 'minutes')
  return count(seconds, 'second', 'seconds')
}
