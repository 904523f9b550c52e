import { useCallback, useState } from 'react'

/**
 * A set of ids held in state (the items ticked in a list), with the function that puts one id in the
 * set (isIn) or takes it out, and the one that replaces the whole set.
 */
export function useIdSet(): [ids: ReadonlySet<string>, put: (id: string, isIn: boolean) => void, replace: (ids: Iterable<string>) => void] {
  const [ids, setIds] = useState<ReadonlySet<string>>(() => new Set())
  const put = useCallback(
    (id: string, isIn: boolean) =>
      setIds((prev) => {
        const next = new Set(prev)
        if (isIn) next.add(id)
        else next.delete(id)
        return next
      }),
    [],
  )
  const replace = useCallback((next: Iterable<string>) => setIds(new Set(next)), [])
  return [ids, put, replace]
}
