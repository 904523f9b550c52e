/** One run of a word-level diff: text both versions share, or text only one of them has. */
export interface DiffPart {
  kind: 'same' | 'added' | 'removed'
  text: string
}

// Above this many differing tokens on both sides together the diff falls back to "all removed, all
// added" for the stretch between the words both texts start and end with: the table below grows with
// the product of the two lengths. Memory texts are at most 4,000 characters, so only a near-total
// rewrite of a long text gets there.
const maxTokens = 3000

/** Splits text into words and the whitespace between them, keeping every character. */
function tokens(text: string): string[] {
  return text.split(/(\s+)/).filter((t) => t !== '')
}

/**
 * wordDiff compares two texts word by word (a longest common subsequence of words and spaces) and
 * returns the runs that turn `before` into `after`, adjacent runs of one kind merged. Within a
 * stretch of changes the removed text comes before the added text.
 */
export function wordDiff(before: string, after: string): DiffPart[] {
  const a = tokens(before)
  const b = tokens(after)
  // The words both texts start and end with are kept as they are; only the stretch between is compared.
  let start = 0
  while (start < a.length && start < b.length && a[start] === b[start]) start++
  let end = 0
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++
  const same = (text: string): DiffPart => ({ kind: 'same', text })
  const head = a.slice(0, start).map(same)
  const tail = a.slice(a.length - end).map(same)
  const middle = changes(a.slice(start, a.length - end), b.slice(start, b.length - end))
  return merge(group(absorbSpaces([...head, ...middle, ...tail])))
}

/** The runs that turn the tokens a into the tokens b: one run per token, or one per side past maxTokens. */
function changes(a: string[], b: string[]): DiffPart[] {
  if (a.length + b.length > maxTokens) {
    return [
      { kind: 'removed', text: a.join('') },
      { kind: 'added', text: b.join('') },
    ]
  }
  // lcs[i][j]: length of the longest common subsequence of a[i:] and b[j:].
  const lcs: Uint16Array[] = Array.from({ length: a.length + 1 }, () => new Uint16Array(b.length + 1))
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1])
    }
  }
  const parts: DiffPart[] = []
  let i = 0
  let j = 0
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i] })
      i++
      j++
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      parts.push({ kind: 'removed', text: a[i++] })
    } else {
      parts.push({ kind: 'added', text: b[j++] })
    }
  }
  while (i < a.length) parts.push({ kind: 'removed', text: a[i++] })
  while (j < b.length) parts.push({ kind: 'added', text: b[j++] })
  return parts
}

/**
 * A lone space kept between two changes reads badly (two struck-out words with an unmarked space
 * between them); it joins the changes on both sides instead.
 */
function absorbSpaces(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = []
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k]
    const prev = parts[k - 1]
    const next = parts[k + 1]
    if (p.kind === 'same' && /^\s+$/.test(p.text) && prev && next && prev.kind !== 'same' && next.kind !== 'same') {
      out.push({ kind: 'removed', text: p.text }, { kind: 'added', text: p.text })
    } else {
      out.push(p)
    }
  }
  return out
}

/** Orders each stretch of changes as all its removals, then all its additions. */
function group(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = []
  let removed: DiffPart[] = []
  let added: DiffPart[] = []
  const flush = () => {
    out.push(...removed, ...added)
    removed = []
    added = []
  }
  for (const p of parts) {
    if (p.kind === 'same') {
      flush()
      out.push(p)
    } else if (p.kind === 'removed') {
      removed.push(p)
    } else {
      added.push(p)
    }
  }
  flush()
  return out
}

function merge(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = []
  for (const p of parts) {
    if (p.text === '') continue
    const last = out[out.length - 1]
    if (last && last.kind === p.kind) last.text += p.text
    else out.push({ ...p })
  }
  return out
}
