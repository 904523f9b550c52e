/**
 * What is wrong with a teammate's name, in plain words, or null when the API will take it: 1 to max
 * characters once trimmed (max is the API's Limits.teammateNameLength). The server checks the same
 * rules (and its answer is shown too); checking here says so while typing.
 */
export function teammateNameProblem(name: string, max: number): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return 'Enter a name: it can’t be empty or only spaces.'
  const length = [...trimmed].length
  if (length > max) {
    return `The name is too long: ${length} characters, and at most ${max} fit.`
  }
  return null
}
